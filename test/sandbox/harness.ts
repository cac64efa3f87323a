/** Starts a sandbox chain and its RPC for a test file, and builds transactions as production code would. */
import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  createSandboxChain,
  type SandboxChain,
  type SandboxChainOptions,
} from '../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface Sandbox {
  chain: SandboxChain;
  server: SandboxRpc;
  rpc: Rpc<SolanaRpcApi>;
  subscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>;
  close(): Promise<void>;
}

/** Deterministic by default: no wall-clock ticker, slots move only by `chain.warp`. */
export async function startSandbox(options: SandboxChainOptions = {}): Promise<Sandbox> {
  const chain = await createSandboxChain({ autoAdvance: false, ...options });
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  return {
    chain,
    server,
    rpc: createSolanaRpc(server.url) as Rpc<SolanaRpcApi>,
    subscriptions: createSolanaRpcSubscriptions(server.wsUrl),
    close: async () => {
      chain.stop();
      await server.close();
    },
  };
}

/** A new wallet funded by setAccount (no history), as seeding does. */
export async function fundedSigner(
  chain: SandboxChain,
  lamports = 10n * LAMPORTS_PER_SOL,
): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  chain.setAccount({ address: signer.address, lamports });
  return signer;
}

export interface BuildOptions {
  version?: 'legacy' | 0;
  blockhash?: { blockhash: string; lastValidBlockHeight: bigint };
}

/** Signs `instructions` with a blockhash fetched over RPC; returns the base64 wire transaction and its signature. */
export async function buildTransaction(
  sandbox: Pick<Sandbox, 'rpc'>,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  options: BuildOptions = {},
): Promise<{ wire: ReturnType<typeof getBase64EncodedWireTransaction>; signature: string }> {
  const lifetime = options.blockhash ?? (await sandbox.rpc.getLatestBlockhash().send()).value;
  const signed = await pipe(
    createTransactionMessage({ version: options.version ?? 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => signTransactionMessageWithSigners(m),
  );
  const wire = getBase64EncodedWireTransaction(signed);
  const signature = Object.values(signed.signatures)[0];
  if (!signature) throw new Error('unsigned transaction');
  const { getBase58Decoder } = await import('@solana/kit');
  return { wire, signature: getBase58Decoder().decode(signature) };
}

/** Sends through the RPC exactly as a client would, returning the signature. */
export async function send(
  sandbox: Pick<Sandbox, 'rpc'>,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
  options: BuildOptions & { skipPreflight?: boolean } = {},
): Promise<string> {
  const { wire } = await buildTransaction(sandbox, payer, instructions, options);
  return sandbox.rpc
    .sendTransaction(wire, { encoding: 'base64', skipPreflight: options.skipPreflight ?? false })
    .send();
}

/** Posts a raw JSON-RPC body, for what kit never sends (batches, malformed requests). */
export async function postRaw(url: string, body: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return response.json();
}

/** Expects `promise` to reject with a kit SolanaError carrying JSON-RPC `code`; returns its context. */
export async function rpcError(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; context: Record<string, unknown>; cause: number | undefined }> {
  try {
    await promise;
  } catch (error) {
    const e = error as {
      context?: Record<string, unknown>;
      message: string;
      cause?: { context?: { __code?: number } };
    };
    const context = e.context ?? {};
    return {
      code: Number(context.__code),
      message: String(context.__serverMessage ?? e.message),
      context,
      cause: e.cause?.context?.__code,
    };
  }
  throw new Error('expected the RPC call to fail');
}

export type { Address };
