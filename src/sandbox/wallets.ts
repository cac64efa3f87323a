/**
 * Signing and sending from sandbox wallets, the way a real client builds transactions:
 * kit messages with the chain's latest blockhash, signed by the payer, sent with preflight.
 */
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import type { SandboxChain } from './chain/chain.js';

/** Sends one transaction of `instructions` paid and signed by `payer`; returns its signature. */
export async function sendInstructions(
  chain: SandboxChain,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
  const transaction = await pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash as Blockhash, lastValidBlockHeight },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => signTransactionMessageWithSigners(m),
  );
  const result = chain.send(new Uint8Array(getTransactionEncoder().encode(transaction)));
  if (!result.landed) throw new Error('the sandbox dropped a seeding transaction');
  return result.signature;
}
