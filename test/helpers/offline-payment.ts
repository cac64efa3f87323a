/**
 * x402 `exact` payment transactions built offline, in the shape the official @x402/svm client
 * builds (compute-unit limit, compute-unit price, one USDC TransferChecked to payTo's
 * associated account; the facilitator's fee-payer slot left unsigned), for tests of the
 * payment core that need no chain.
 */
import {
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { SOLANA_MAINNET_CAIP2, USDC_MINT } from '../../src/x402/networks.js';

export interface OfflinePaymentOptions {
  readonly payer: KeyPairSigner;
  readonly payTo: string;
  readonly feePayer: string;
  readonly amount: bigint;
  /** Differs per payment so two payments never share a key. */
  readonly blockhash?: string;
  readonly computeUnitPrice?: bigint;
  readonly computeUnitLimit?: number;
}

export async function usdcAccountOf(owner: string): Promise<string> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(USDC_MINT),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

/** base64 of the partially signed payment transaction. */
export async function offlinePaymentTransaction(o: OfflinePaymentOptions): Promise<string> {
  const source = await usdcAccountOf(o.payer.address);
  const destination = await usdcAccountOf(o.payTo);
  const blockhash = (o.blockhash ?? (await generateKeyPairSigner()).address) as Blockhash;
  const instructions = [
    getSetComputeUnitLimitInstruction({ units: o.computeUnitLimit ?? 20_000 }),
    getSetComputeUnitPriceInstruction({ microLamports: o.computeUnitPrice ?? 1n }),
    getTransferCheckedInstruction({
      source: address(source),
      mint: address(USDC_MINT),
      destination: address(destination),
      authority: o.payer,
      amount: o.amount,
      decimals: 6,
    }),
  ];
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(createNoopSigner(address(o.feePayer)), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 1_000n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

/** The PAYMENT-SIGNATURE header (x402 v2) carrying `transaction` for `resourceUrl`. */
export function v2PaymentHeader(
  transaction: string,
  terms: { payTo: string; feePayer: string; amount: bigint; resourceUrl: string },
): string {
  const accepted = {
    scheme: 'exact',
    network: SOLANA_MAINNET_CAIP2,
    amount: String(terms.amount),
    asset: USDC_MINT,
    payTo: terms.payTo,
    maxTimeoutSeconds: 60,
    extra: { feePayer: terms.feePayer },
  };
  const payload = {
    x402Version: 2,
    accepted,
    payload: { transaction },
    resource: { url: terms.resourceUrl },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
