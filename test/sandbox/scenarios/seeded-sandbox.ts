/** A seeded chain (restored from the per-process snapshot) behind a real RPC server, for the scenario tests. */
import { type Address, createSolanaRpc, type Rpc, type Signature, type SolanaRpcApi } from '@solana/kit';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, seededChain } from '../../../src/sandbox/scenarios/index.js';

export interface SeededSandbox {
  chain: SandboxChain;
  server: SandboxRpc;
  rpc: Rpc<SolanaRpcApi>;
  manifest: ScenarioManifest;
  timings: { seedMs: number; restoreMs: number };
  close(): Promise<void>;
}

export async function startSeededSandbox(): Promise<SeededSandbox> {
  const { chain, manifest, timings } = await seededChain();
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  return {
    chain,
    server,
    rpc: createSolanaRpc(server.url) as Rpc<SolanaRpcApi>,
    manifest,
    timings,
    close: async () => {
      chain.stop();
      await server.close();
    },
  };
}

/** Account bytes over RPC (base64), or a thrown error when the account does not exist. */
export async function accountBytes(
  sandbox: Pick<SeededSandbox, 'rpc'>,
  address: string,
): Promise<{ data: Uint8Array; owner: Address; lamports: bigint; executable: boolean }> {
  const { value } = await sandbox.rpc.getAccountInfo(address as Address, { encoding: 'base64' }).send();
  if (!value) throw new Error(`no account ${address}`);
  return {
    data: new Uint8Array(Buffer.from(value.data[0], 'base64')),
    owner: value.owner,
    lamports: value.lamports,
    executable: value.executable,
  };
}

/** Every signature naming `address`, newest first (pages of 1000 as mainnet serves them). */
export async function signaturesOf(sandbox: Pick<SeededSandbox, 'rpc'>, address: string) {
  return sandbox.rpc.getSignaturesForAddress(address as Address, { limit: 1000 }).send();
}

export async function transactionOf(sandbox: Pick<SeededSandbox, 'rpc'>, signature: string) {
  const tx = await sandbox.rpc
    .getTransaction(signature as Signature, { maxSupportedTransactionVersion: 0, encoding: 'json' })
    .send();
  if (!tx) throw new Error(`no transaction ${signature}`);
  return tx;
}
