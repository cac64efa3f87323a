/** Real wire transactions for pure assess tests: built and signed with kit, as an RPC returns them. */
import { getBase64EncodedWireTransaction, type Instruction, type KeyPairSigner } from '@solana/kit';
import { signedV0Transaction } from '../../src/sandbox/wallets.js';

/** A signed v0 transaction, as base64 wire bytes (what getTransaction returns with encoding base64). */
export async function signedWire(
  feePayer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<string> {
  const lifetime = { blockhash: '11111111111111111111111111111111', lastValidBlockHeight: 100n };
  return getBase64EncodedWireTransaction(await signedV0Transaction(feePayer, instructions, lifetime));
}
