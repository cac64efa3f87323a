/**
 * The agent's own wallet as the @solana/kit signer the client pays with. solana-agent-kit wallets
 * sign web3.js transactions (`wallet.signTransaction`), the client builds @solana/kit ones: the
 * payment's wire bytes are handed to the wallet as a VersionedTransaction and its signature taken
 * back, so a browser or hardware wallet behind the kit's interface pays as a keypair would.
 */
import {
  type Address,
  address,
  getTransactionEncoder,
  type SignatureBytes,
  type SignatureDictionary,
  type Transaction,
  type TransactionPartialSigner,
} from '@solana/kit';
import { VersionedTransaction } from '@solana/web3.js';
import type { BaseWallet } from 'solana-agent-kit';

/** What of the kit's wallet signing needs. */
export type SigningWallet = Pick<BaseWallet, 'publicKey' | 'signTransaction'>;

export function walletSigner(wallet: SigningWallet): TransactionPartialSigner {
  const signer = address(wallet.publicKey.toBase58());
  return Object.freeze({
    address: signer,
    signTransactions: (transactions: readonly Transaction[]) =>
      Promise.all(transactions.map((transaction) => signWithWallet(wallet, signer, transaction))),
  });
}

async function signWithWallet(
  wallet: SigningWallet,
  signer: Address,
  transaction: Transaction,
): Promise<SignatureDictionary> {
  const wire = new Uint8Array(getTransactionEncoder().encode(transaction));
  const signed = await wallet.signTransaction(VersionedTransaction.deserialize(wire));
  // A wallet that rewrites the message (adds a priority fee, say) signed something else: the
  // signature would not verify against the payment the client built, so it is refused here.
  if (!sameBytes(signed.message.serialize(), transaction.messageBytes))
    throw new Error('the wallet changed the payment transaction instead of signing it');
  const index = signed.message.staticAccountKeys.findIndex((key) => key.toBase58() === signer);
  const signature = index >= 0 ? signed.signatures[index] : undefined;
  if (!signature || signature.every((byte) => byte === 0))
    throw new Error(`the wallet did not sign the payment as ${signer}`);
  return Object.freeze({ [signer]: signature as SignatureBytes });
}

function sameBytes(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (byte, i) => byte === b[i]);
}
