/**
 * A cheap look, before the facilitator has answered, at whether a payment can succeed: does
 * its source account hold the amount, in USDC, unfrozen, for the signer? Only a "yes" lets the
 * scan start while verification runs; a payment from an empty wallet must not cost a scan.
 * The facilitator's verify stays the authority: this never refuses a payment by itself.
 */
import { getBase64Encoder } from '@solana/kit';
import { decodeTokenAccount } from '../solana/decoders/token-account.js';
import type { SolanaRpc } from '../solana/rpc.js';
import { USDC_MINT } from './networks.js';
import type { InspectedPayment } from './payment-transaction.js';

export interface FundsCheck {
  /** True only when the chain shows the payment can be covered; false when unsure. Never rejects. */
  covers(payment: InspectedPayment): Promise<boolean>;
}

export function createFundsCheck(rpc: SolanaRpc): FundsCheck {
  return {
    async covers(payment) {
      try {
        const { value } = await rpc.getAccountInfo(payment.source, { encoding: 'base64' }).send();
        if (value === null) return false;
        const data = getBase64Encoder().encode(value.data[0]) as Uint8Array;
        const account = decodeTokenAccount(data, value.owner);
        if (!account.ok) return false;
        const a = account.value;
        if (a.mint !== USDC_MINT || a.state !== 'initialized' || a.amount < payment.amount) return false;
        if (a.owner === payment.payer) return true;
        return a.delegate === payment.payer && a.delegatedAmount >= payment.amount;
      } catch {
        return false;
      }
    },
  };
}
