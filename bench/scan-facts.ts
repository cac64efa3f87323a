/**
 * What facts kept across scans save (src/scans/fact-store.ts), against the seeded sandbox with 50 ms
 * added to every RPC call: per case, RPC calls by method of a first scan (nothing kept) and of a
 * second scan made after it on the same store, either of the same subject ("repeated") or of a
 * related one ("another coin of the same creator"), beside that second subject scanned with nothing
 * kept. Calls are counted (test/helpers/rpc-transports.ts, countingTransport); each round starts
 * from an empty memory store, and the second scan's time is given as a ratio to the first's of the
 * same round, min / median / max over the rounds. The sandbox RPC runs in a worker thread.
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { ScanId } from '../src/catalog.js';
import type { ScenarioManifest } from '../src/sandbox/scenarios/manifest.js';
import type { FactStore } from '../src/scans/fact-store.js';
import { SCANNERS } from '../src/scans/registry.js';
import { createMemoryFactStore } from '../src/state/facts/memory.js';
import { countingTransport, delayedTransport } from '../test/helpers/rpc-transports.js';
import { printTable, showSpread, spread } from './lib/report.js';
import { startSandboxRpcInWorker } from './lib/sandbox-rpc-worker.js';

const RPC_LATENCY_MS = 50;

interface Case {
  readonly endpoint: ScanId;
  readonly subject: string;
  /** The second scan's subject: the same one, or a related one (another coin of the creator). */
  readonly second: 'repeated' | 'creator-coin';
}

const CASES: readonly Case[] = [
  { endpoint: 'pumpfun', subject: 'pumpfun:dumper-latest', second: 'creator-coin' },
  { endpoint: 'token', subject: 'pumpfun:dumper-latest', second: 'creator-coin' },
  { endpoint: 'pumpfun', subject: 'pumpfun:serial-closed', second: 'repeated' },
  { endpoint: 'pumpfun', subject: 'pumpfun:curve-active', second: 'repeated' },
  { endpoint: 'pumpfun', subject: 'pumpfun:launch-bundled', second: 'repeated' },
  { endpoint: 'pumpfun', subject: 'pumpfun:insiders-via-intermediate', second: 'repeated' },
  { endpoint: 'token', subject: 'token:insiders-creator-funded', second: 'repeated' },
  { endpoint: 'token', subject: 'token:clean', second: 'repeated' },
  { endpoint: 'tx', subject: 'tx:high-priority-fee', second: 'repeated' },
  { endpoint: 'wallet', subject: 'wallet:old-active', second: 'repeated' },
];

function addressOf(manifest: ScenarioManifest, name: string): string {
  const entry = manifest.subjects.find((s) => s.name === name) as
    | { address?: string; signature?: string }
    | undefined;
  const subject = entry?.address ?? entry?.signature;
  if (subject === undefined) throw new Error(`the manifest has no ${name}`);
  return subject;
}

/** Another coin of the same creator: the fourth newest the manifest lists with the creator's newest. */
function creatorCoin(manifest: ScenarioManifest, name: string): string {
  const entry = manifest.subjects.find((s) => s.name === name) as
    | { expect?: { creatorLaunches?: { mints: readonly string[] } } }
    | undefined;
  const coin = entry?.expect?.creatorLaunches?.mints.at(-4);
  if (coin === undefined) throw new Error(`${name} names no other coin of its creator`);
  return coin;
}

type Count = { calls: string[]; ms: number };

async function scanOnce(url: string, endpoint: ScanId, subject: string, facts?: FactStore): Promise<Count> {
  const counter = countingTransport(delayedTransport(createDefaultRpcTransport({ url }), RPC_LATENCY_MS));
  const started = performance.now();
  await SCANNERS[endpoint](subject, {
    rpc: createSolanaRpcFromTransport(counter.transport),
    now: Date.now,
    ...(facts ? { facts } : {}),
  });
  return { calls: [...counter.calls], ms: performance.now() - started };
}

const of = (calls: readonly string[], method: string) => calls.filter((c) => c === method).length;

async function runCase(url: string, manifest: ScenarioManifest, c: Case, rounds: number) {
  const first = addressOf(manifest, c.subject);
  const second = c.second === 'repeated' ? first : creatorCoin(manifest, c.subject);
  const ratios: number[] = [];
  let counts: { first: Count; second: Count; alone: Count } | undefined;
  for (let round = 0; round < rounds; round++) {
    const facts = createMemoryFactStore();
    const alone = await scanOnce(url, c.endpoint, second);
    const one = await scanOnce(url, c.endpoint, first, facts);
    const two = await scanOnce(url, c.endpoint, second, facts);
    ratios.push(two.ms / alone.ms);
    counts = { first: one, second: two, alone };
  }
  return { ...c, counts: counts!, ratio: spread(ratios) };
}

export async function runScanFacts(options: { rounds: number }) {
  const server = await startSandboxRpcInWorker();
  const rows = [];
  try {
    for (const c of CASES) rows.push(await runCase(server.url, server.manifest, c, options.rounds));
  } finally {
    await server.close();
  }
  printTable(
    `RPC calls per scan with facts kept across scans (${RPC_LATENCY_MS} ms per call; second scan on the store the first filled)`,
    [
      'endpoint',
      'subject',
      'second scan',
      'calls, first scan (empty store)',
      'calls, second subject, nothing kept',
      'calls, second subject after the first',
      'getTransaction: nothing kept → after the first',
      'getSignaturesForAddress: nothing kept → after the first',
      'second subject time, after the first ÷ nothing kept: median (min–max)',
    ],
    rows.map((r) => [
      r.endpoint,
      r.subject,
      r.second === 'repeated' ? 'the same subject' : 'another coin of the same creator',
      String(r.counts.first.calls.length),
      String(r.counts.alone.calls.length),
      String(r.counts.second.calls.length),
      `${of(r.counts.alone.calls, 'getTransaction')} → ${of(r.counts.second.calls, 'getTransaction')}`,
      `${of(r.counts.alone.calls, 'getSignaturesForAddress')} → ${of(r.counts.second.calls, 'getSignaturesForAddress')}`,
      showSpread(r.ratio),
    ]),
  );
  return rows.map((r) => ({
    endpoint: r.endpoint,
    subject: r.subject,
    second: r.second,
    first: r.counts.first.calls.length,
    alone: r.counts.alone.calls.length,
    kept: r.counts.second.calls.length,
    ratio: r.ratio,
  }));
}
