/**
 * Scans on the seeded sandbox over its RPC, every call counted by method: what the fact-store tests
 * compare (a scan with facts kept by an earlier one against the same scan with nothing kept).
 */
import { after, before } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { ScenarioManifest } from '../../src/sandbox/scenarios/index.js';
import type { FactStore } from '../../src/scans/fact-store.js';
import type { Scanner } from '../../src/scans/scanner.js';
import type { SolanaRpc } from '../../src/solana/rpc.js';
import { countingTransport } from './rpc-transports.js';
import { seededChain } from './seeded-chain.js';

export interface Sandbox {
  chain: SandboxChain;
  manifest: ScenarioManifest;
  server: SandboxRpc;
}

/** The seeded chain and its RPC for a describe block (`finalityDepth`: how far behind the tip a slot is final). */
export function useSandbox(options: { finalityDepth?: number } = {}): Sandbox {
  const sandbox = {} as Sandbox;
  before(async () => {
    ({ chain: sandbox.chain, manifest: sandbox.manifest } = await seededChain({
      autoAdvance: false,
      ...options,
    }));
    sandbox.server = await startSandboxRpc({ chain: sandbox.chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    sandbox.chain?.stop();
    await sandbox.server?.close();
  });
  return sandbox;
}

/** The calls of one scan, by method. */
export function callsByMethod(calls: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const method of calls) counts[method] = (counts[method] ?? 0) + 1;
  return counts;
}

/** Every account address a scan asked for by getAccountInfo or getMultipleAccounts. */
function accountsAsked(sent: readonly { readonly payload: unknown }[]): Set<string> {
  const asked = new Set<string>();
  for (const { payload } of sent) {
    for (const call of [payload].flat() as { method?: string; params?: unknown[] }[]) {
      const first = call.params?.[0];
      if (call.method === 'getMultipleAccounts') for (const a of first as string[]) asked.add(a);
      if (call.method === 'getAccountInfo') asked.add(first as string);
    }
  }
  return asked;
}

/** One scan, its calls counted by method. */
export async function countedScan(sandbox: Sandbox, scanner: Scanner, subject: string, facts?: FactStore) {
  const counter = countingTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
  const rpc = createSolanaRpcFromTransport(counter.transport) as unknown as SolanaRpc;
  const { result } = await scanner(subject, {
    rpc,
    now: Date.now,
    signal: AbortSignal.timeout(60_000),
    ...(facts ? { facts } : {}),
  });
  const byMethod = (method: string) => counter.calls.filter((c) => c === method).length;
  const evidence = result.evidence as any;
  return {
    result,
    evidence,
    calls: counter.calls.length,
    byMethod,
    methods: callsByMethod(counter.calls),
    accountsAsked: accountsAsked(counter.sent),
  };
}
