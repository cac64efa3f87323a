/**
 * Single scans and a batch of the same subjects, measured alike for tests and the bench: each
 * through a ScanService of its own (empty memory cache) over the sandbox RPC, behind a wave-stepping
 * transport (wave-transport.ts) that counts round trips as waves and records every call sent.
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import type { ScanId } from '../../src/catalog.js';
import type { ScanResult } from '../../src/contract/schemas.js';
import type { ScenarioManifest } from '../../src/sandbox/scenarios/manifest.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { type ScanRun, ScanService } from '../../src/scans/service.js';
import { createMemoryCache } from '../../src/state/cache/memory.js';
import { waveTransport } from './wave-transport.js';

/** Generous: a scan's own deadline must never be what a measurement meets. */
const SCAN_TIMEOUT_MS = 120_000;

export interface Measured {
  readonly results: readonly ScanResult[];
  /** Calls sent, by method, in the order asked. */
  readonly calls: readonly string[];
  /** Round trips (waves); for singles, the deepest single scan's. */
  readonly roundTrips: number;
  /** Account keys asked for in account reads sent. */
  readonly accountKeys: number;
  readonly ms: number;
}

/** A service scanning over `transport` (its reads merged per batch), as the door makes it. */
export function serviceOver(transport: RpcTransport, now: () => number): ScanService {
  return new ScanService({
    scanners: SCANNERS,
    rpc: createSolanaRpcFromTransport(transport),
    transport,
    cache: createMemoryCache(),
    now,
    timeoutMs: SCAN_TIMEOUT_MS,
  });
}

/** Each subject scanned on its own, one after another. */
export async function measureSingles(
  url: string,
  endpoint: ScanId,
  subjects: readonly string[],
  now: () => number,
): Promise<Measured & { readonly perSubject: readonly number[] }> {
  const results: ScanResult[] = [];
  const calls: string[] = [];
  const perSubject: number[] = [];
  let roundTrips = 0;
  let accountKeys = 0;
  const started = performance.now();
  for (const subject of subjects) {
    const waves = waveTransport(createDefaultRpcTransport({ url }));
    results.push((await serviceOver(waves.transport, now).run(endpoint, subject)).result);
    calls.push(...waves.calls);
    perSubject.push(waves.calls.length);
    roundTrips = Math.max(roundTrips, waves.waves());
    accountKeys += waves.accountKeys();
  }
  return { results, calls, roundTrips, accountKeys, perSubject, ms: performance.now() - started };
}

/** The subjects as one batch. */
export async function measureBatch(
  url: string,
  endpoint: ScanId,
  subjects: readonly string[],
  now: () => number,
): Promise<Measured & { readonly runs: readonly ScanRun[] }> {
  const waves = waveTransport(createDefaultRpcTransport({ url }));
  const started = performance.now();
  const runs = await serviceOver(waves.transport, now).runBatch(endpoint, subjects);
  const ms = performance.now() - started;
  const results = runs.map((r) => r.result);
  return {
    results,
    runs,
    calls: waves.calls,
    roundTrips: waves.waves(),
    accountKeys: waves.accountKeys(),
    ms,
  };
}

/** What a batch item must equal its single scan in. */
export const verdictOf = (r: ScanResult) => ({ flags: [...r.flags].sort(), score: r.risk_score });

/** The related-launches cluster (src/sandbox/scenarios/related-launches.ts): coins of one creator, coins one ring sniped. */
export const isRelatedLaunch = (name: string) => name.startsWith('pumpfun:related-');

/**
 * Up to `count` distinct addresses the manifest lists for `kinds`, in its order: the related
 * launches only, or (by default) none of them.
 */
export function subjectsOf(
  manifest: ScenarioManifest,
  kinds: readonly string[],
  count: number,
  set: 'unrelated' | 'related' = 'unrelated',
): string[] {
  const found = manifest.subjects
    .filter((s) => kinds.includes(s.kind) && !s.name.startsWith('mainnet:') && 'address' in s)
    .filter((s) => isRelatedLaunch(s.name) === (set === 'related'))
    .map((s) => (s as { address: string }).address);
  return [...new Set(found)].slice(0, count);
}

/** Calls by method, most first. */
export function byMethod(calls: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}
