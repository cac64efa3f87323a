/**
 * A GOAT Solana wallet client as the @solana/kit signer an x402 payment needs.
 *
 * An x402 payment is a transaction the payer signs and the facilitator completes (as fee payer)
 * and sends, so the payer must sign without sending. GOAT's Solana wallet clients sign a
 * transaction only while sending it (`sendTransaction`, `sendRawTransaction`); the one call that
 * signs and returns the signature is `signMessage`. `SolanaKeypairWalletClient.signMessage` signs
 * exactly the bytes it is handed (`Buffer.from(message)`, Ed25519 over them, hex out), and a
 * Solana transaction's signature is Ed25519 over its message bytes, so the message bytes go to
 * `signMessage` as they are. Its declared parameter is a string; a wallet client that encodes or
 * prefixes what it signs gives a signature that does not verify, so every signature is verified
 * against the wallet's address before use and a wallet that fails is refused before anything
 * is sent.
 */
import type { SolanaWalletClient } from '@goat-sdk/wallet-solana';
import {
  address,
  getPublicKeyFromAddress,
  type SignatureBytes,
  type SignatureDictionary,
  type Transaction,
  type TransactionPartialSigner,
  verifySignature,
} from '@solana/kit';

/** The wallet's signMessage, as it is called: with the raw bytes where its type says string. */
type SignBytes = (message: Transaction['messageBytes']) => Promise<{ signature: string }>;
type PublicKey = Awaited<ReturnType<typeof getPublicKeyFromAddress>>;

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

export function goatWalletSigner(wallet: SolanaWalletClient): TransactionPartialSigner {
  const payer = address(wallet.getAddress());
  const signBytes = wallet.signMessage.bind(wallet) as unknown as SignBytes;
  const signOne = async (transaction: Transaction, key: PublicKey): Promise<SignatureDictionary> => {
    const { signature } = await signBytes(transaction.messageBytes);
    const bytes = hexBytes(signature) as SignatureBytes;
    if (bytes.length !== 64 || !(await verifySignature(key, bytes, transaction.messageBytes))) {
      throw new Error(
        `The GOAT wallet ${payer} did not sign the payment's bytes as they are (its signMessage ` +
          'encodes or prefixes messages); pass a @solana/kit signer as `signer` instead.',
      );
    }
    return Object.freeze({ [payer]: bytes });
  };
  return Object.freeze({
    address: payer,
    async signTransactions(transactions: readonly Transaction[]) {
      const key = await getPublicKeyFromAddress(payer);
      return Promise.all(transactions.map((transaction) => signOne(transaction, key)));
    },
  });
}
