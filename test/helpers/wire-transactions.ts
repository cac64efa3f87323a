/** Real wire transactions for pure assess tests: built and signed with kit, as an RPC returns them. */
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';

/** A signed v0 transaction, as base64 wire bytes (what getTransaction returns with encoding base64). */
export async function signedWire(
  feePayer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<string> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 100n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
}
