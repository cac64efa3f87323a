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

/** A related subject named in the manifest, and how it is related. */
interface Related {
  readonly name: string;
  readonly as: string;
}

interface Case {
  readonly endpoint: ScanId;
  readonly subject: string;
  /** The second scan's subject: the same one, another coin of the creator, or a named related one. */
  readonly second: 'repeated' | 'creator-coin' | Related;
}

const SAME_CREATOR = 'another coin of the same creator';
/** The related-launches cluster (src/sandbox/scenarios/related-launches.ts). */
const SERIAL_SIBLING: Related = { name: 'pumpfun:related-serial-3', as: SAME_CREATOR };
const RING_SIBLING: Related = { name: 'pumpfun:related-ring-7', as: 'a coin sharing its holders' };

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
  { endpoint: 'pumpfun', subject: 'pumpfun:serial-latest', second: 'creator-coin' },
  { endpoint: 'pumpfun', subject: 'pumpfun:related-serial-9', second: SERIAL_SIBLING },
  { endpoint: 'token', subject: 'pumpfun:related-serial-9', second: SERIAL_SIBLING },
  { endpoint: 'pumpfun', subject: 'pumpfun:related-ring-0', second: RING_SIBLING },
  { endpoint: 'token', subject: 'pumpfun:related-ring-0', second: RING_SIBLING },
];

const secondOf = (manifest: ScenarioManifest, c: Case) =>
  c.second === 'repeated'
    ? addressOf(manifest, c.subject)
    : c.second === 'creator-coin'
      ? creatorCoin(manifest, c.subject)
      : addressOf(manifest, c.second.name);

const relation = (c: Case) =>
  c.second === 'repeated' ? 'the same subject' : c.second === 'creator-coin' ? SAME_CREATOR : c.second.as;

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
  const second = secondOf(manifest, c);
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
      relation(r),
      String(r.counts.first.calls.length),
      String(r.counts.alone.calls.length),
      String(r.counts.second.calls.length),
      `${of(r.counts.alone.calls, 'getTransaction')} → ${of(r.counts.second.calls, 'getTransaction')}`,
      `${of(r.counts.alone.calls, 'getSignaturesForAddress')} → ${of(r.counts.second.calls, 'getSignaturesForAddress')}`,
      showSpread(r.ratio),
    ]),
  );
  printByKind(rows);
  return rows.map((r) => ({
    endpoint: r.endpoint,
    subject: r.subject,
    second: relation(r),
    first: r.counts.first.calls.length,
    alone: r.counts.alone.calls.length,
    kept: r.counts.second.calls.length,
    ratio: r.ratio,
  }));
}

type Row = Awaited<ReturnType<typeof runCase>>;

const minMedMax = (values: readonly number[]) => {
  if (values.length === 0) return '—';
  const { min, median, max } = spread(values);
  return values.length === 1 ? String(median) : `${median} (${min}–${max})`;
};

/** Calls a scan costs by kind: nothing kept, the same subject again, a related one; median (min–max) over the rows. */
function printByKind(rows: readonly Row[]) {
  const kinds = [...new Set(rows.map((r) => r.endpoint))];
  printTable(
    'RPC calls a scan costs by kind, first time and repeated (median (min–max) over the rows above)',
    [
      'endpoint',
      'rows',
      'first time (nothing kept)',
      'the same subject again',
      'a related subject after the first',
    ],
    kinds.map((kind) => {
      const mine = rows.filter((r) => r.endpoint === kind);
      const firstTimes = mine.flatMap((r) => [r.counts.first.calls.length, r.counts.alone.calls.length]);
      const again = mine.filter((r) => r.second === 'repeated').map((r) => r.counts.second.calls.length);
      const related = mine.filter((r) => r.second !== 'repeated').map((r) => r.counts.second.calls.length);
      return [kind, String(mine.length), minMedMax(firstTimes), minMedMax(again), minMedMax(related)];
    }),
  );
}
