/**
 * Signing and sending from sandbox wallets, the way wallets do: a kit message with the chain's
 * latest blockhash, signed by the fee payer and every signer its instructions carry. It can
 * land failing transactions (mainnet's skipPreflight), which several scenarios need, and
 * reports how each one ended.
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
import type { TransactionErrorJson } from './chain/tx-errors.js';

export interface SubmitOptions {
  /** Land the transaction even if it fails (mainnet's skipPreflight); otherwise a failing one throws. */
  skipPreflight?: boolean;
}

export interface Submitted {
  signature: string;
  slot: bigint;
  err: TransactionErrorJson | null;
  fee: bigint;
}

/** A v0 transaction from `payer` with `instructions`, signed by the payer and every signer they carry. */
export function signedV0Transaction(
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  lifetime: { blockhash: string; lastValidBlockHeight: bigint },
) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => signTransactionMessageWithSigners(m),
  );
}

export async function submit(
  chain: SandboxChain,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  options: SubmitOptions = {},
): Promise<Submitted> {
  const transaction = await signedV0Transaction(payer, instructions, chain.latestBlockhash());
  const wire = new Uint8Array(getTransactionEncoder().encode(transaction));
  const result = chain.send(wire, { skipPreflight: options.skipPreflight ?? false });
  const record = result.landed ? chain.transaction(result.signature) : undefined;
  if (!record) throw new Error(`scenario transaction ${result.signature} did not land`);
  return { signature: record.signature, slot: record.slot, err: record.meta.err, fee: record.meta.fee };
}

/** Lands a transaction that must fail on-chain (fee charged, error recorded). */
export async function submitFailing(
  chain: SandboxChain,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<Submitted> {
  const submitted = await submit(chain, payer, instructions, { skipPreflight: true });
  if (submitted.err === null) throw new Error(`expected ${submitted.signature} to fail, it succeeded`);
  return submitted;
}
