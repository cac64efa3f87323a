/**
 * HTTP overhead of the service on its cheapest paths — the 402 offer and /openapi.json —
 * as a ratio to a bare node:http server answering the very same bytes, measured in the same
 * run with interleaved rounds (these machines are noisy; ratios are what we compare). The 402
 * is measured twice: for one URL asked again and again (its offer is kept), and for a new mint
 * on every request (the offer is rendered each time).
 *
 * Four servers, each its own process: the bare baseline, a second bare server (its ratio to
 * the first is the noise floor), the service as production runs it (one info log line per
 * request to stdout), and the service with logging off, which shows what the log line costs.
 * Servers run on one CPU and autocannon on the other when the machine allows it, so the load
 * generator never takes the server's core. Besides req/s and p99, each run records the
 * server's CPU time per request (user + system), the figure least moved by the load generator.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { startFacilitatorStub } from '../test/helpers/facilitator-stub.js';
import { autocannon, type ChildServer, type LoadResult, PINNING, startChildServer } from './lib/processes.js';
import { recordResponse } from './lib/record-response.js';
import { median, printTable, type Spread, showSpread, spread } from './lib/report.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const FEE_PAYER = '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4';

/**
 * Paths of the "new mint each request" case: twice as many as the offers the service keeps
 * (offers.ts), cycled in order, so no request finds its offer kept.
 */
const DISTINCT_MINTS = 2048;

interface Case {
  readonly name: string;
  readonly paths: readonly string[];
  readonly status: number;
}

function distinctMintPaths(): string[] {
  return Array.from({ length: DISTINCT_MINTS }, () => `/scan/token/${bs58.encode(randomBytes(32))}`);
}

const CASES: readonly Case[] = [
  { name: '402 offer', paths: ['/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'], status: 402 },
  { name: '402 offer, a new mint each request', paths: distinctMintPaths(), status: 402 },
  { name: '/openapi.json', paths: ['/openapi.json'], status: 200 },
];

/**
 * 'raw, again' is a second bare server answering the same bytes: its ratio to the first is what
 * two identical servers measure apart on this machine, the noise floor the others are read against.
 */
const SERVERS = ['raw', 'raw, again', 'service', 'service, logs off'] as const;
type ServerName = (typeof SERVERS)[number];

/**
 * The orders of four rounds in turn, a balanced Latin square (Williams design): in every four
 * rounds each server runs once in each place of a round and once right after each of the
 * others, so neither its place nor its neighbour favours one server. (With one order reversed
 * every other round, the bare server divided by always ran first or last, and the second bare
 * server measured a few per cent cheaper than it in every run.)
 */
const ROUND_ORDERS: readonly (readonly ServerName[])[] = williamsSquare(SERVERS);

/** Rows of a Williams design for an even number of treatments: 0, 1, n-1, 2, n-2, … shifted by the row. */
function williamsSquare<T>(items: readonly T[]): T[][] {
  const n = items.length;
  const first = Array.from({ length: n }, (_, i) => (i % 2 === 1 ? (i + 1) / 2 : (n - i / 2) % n));
  return items.map((_, row) => first.map((k) => items[(k + row) % n]!));
}

/** One autocannon run against one server, with the server's CPU time per request. */
interface Run extends LoadResult {
  readonly cpuMicrosPerRequest: number;
}

const CONNECTIONS = 50;

/** Load on the case's one path, or on all its paths in turn (`pathsFile`). */
async function measure(server: ChildServer, c: Case, pathsFile: string, seconds: number): Promise<Run> {
  const cpuBefore = server.cpuMicros();
  const many = c.paths.length > 1 ? pathsFile : undefined;
  const load = await autocannon(
    server.url + c.paths[0],
    seconds,
    CONNECTIONS,
    undefined,
    PINNING?.load,
    many,
  );
  const cpu = server.cpuMicros() - cpuBefore;
  return { ...load, cpuMicrosPerRequest: cpu / Math.max(load.total, 1) };
}

export interface HttpOverheadRow {
  readonly case: string;
  readonly server: ServerName;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerRequest: number;
  /** Over rounds of (this server ÷ raw in the same round): median, lowest, highest; 1 for raw. */
  readonly throughputRatio: Spread;
  readonly p99Ratio: Spread;
  readonly cpuRatio: Spread;
  /** As cpuRatio, over the mean of both bare servers in the same round (a steadier divisor). */
  readonly cpuRatioToBoth: Spread;
}

export async function runHttpOverhead(options: {
  seconds: number;
  rounds: number;
  /** Only the cases whose name starts with this (all when absent). */
  cases?: string;
}): Promise<HttpOverheadRow[]> {
  const cases = CASES.filter((c) => options.cases === undefined || c.name.startsWith(options.cases));
  const stub = await startFacilitatorStub(FEE_PAYER);
  const serviceEnv = { PAY_TO, FACILITATOR_URLS: stub.url };
  const cpu = PINNING?.server;
  const servers = new Map<ServerName, ChildServer>();
  const rows: HttpOverheadRow[] = [];
  try {
    servers.set(
      'service',
      await startChildServer(here('./servers/service.ts'), { ...serviceEnv, LOG_LEVEL: 'info' }, cpu),
    );
    servers.set(
      'service, logs off',
      await startChildServer(here('./servers/service.ts'), { ...serviceEnv, LOG_LEVEL: 'silent' }, cpu),
    );
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    const table: Record<string, unknown> = {};
    for (const c of cases) {
      for (const path of c.paths) {
        const recorded = await recordResponse(servers.get('service')!.url + path);
        if (recorded.status !== c.status) throw new Error(`${path} answered ${recorded.status}`);
        table[path] = recorded;
      }
    }
    writeFileSync(join(dir, 'responses.json'), JSON.stringify(table));
    const pathsFiles = cases.map((c, i) => {
      const file = join(dir, `paths-${i}.json`);
      writeFileSync(file, JSON.stringify(c.paths));
      return file;
    });
    for (const name of ['raw', 'raw, again'] as const) {
      servers.set(
        name,
        await startChildServer(here('./servers/raw.ts'), { RESPONSES: join(dir, 'responses.json') }, cpu),
      );
    }

    for (const [i, c] of cases.entries()) {
      const pathsFile = pathsFiles[i]!;
      const runs = new Map<ServerName, Run[]>(SERVERS.map((s) => [s, []]));
      // Warm every server up (JIT, sockets) before measuring.
      for (const name of SERVERS) await measure(servers.get(name)!, c, pathsFile, 2);
      for (let round = 0; round < options.rounds; round++) {
        for (const name of ROUND_ORDERS[round % ROUND_ORDERS.length]!)
          runs.get(name)!.push(await measure(servers.get(name)!, c, pathsFile, options.seconds));
      }
      const raw = runs.get('raw')!;
      const rawAgain = runs.get('raw, again')!;
      const bothRawCpu = raw.map((r, i) => (r.cpuMicrosPerRequest + rawAgain[i]!.cpuMicrosPerRequest) / 2);
      for (const name of SERVERS) {
        const mine = runs.get(name)!;
        const perRound = (f: (r: Run) => number, floor = 0) =>
          spread(mine.map((r, i) => f(r) / Math.max(f(raw[i]!), floor)));
        rows.push({
          case: c.name,
          server: name,
          requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
          p99Ms: median(mine.map((r) => r.p99Ms)),
          cpuMicrosPerRequest: median(mine.map((r) => r.cpuMicrosPerRequest)),
          throughputRatio: perRound((r) => r.requestsPerSecond),
          p99Ratio: perRound((r) => r.p99Ms, 1),
          cpuRatio: perRound((r) => r.cpuMicrosPerRequest),
          cpuRatioToBoth: spread(mine.map((r, i) => r.cpuMicrosPerRequest / bothRawCpu[i]!)),
        });
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop();
    await stub.close();
  }
  const setup = PINNING
    ? `servers on CPU ${PINNING.server}, autocannon on CPU ${PINNING.load}`
    : 'not pinned (one CPU or no taskset)';
  printTable(
    `HTTP overhead: service vs bare node:http answering the same bytes (autocannon -c ${CONNECTIONS}, ${options.rounds} interleaved rounds of ${options.seconds} s, ${setup}; ratios are per round, as the median and the lowest–highest round)`,
    [
      'case',
      'server',
      'req/s',
      'req/s ÷ raw, median (min–max)',
      'p99 ms',
      'p99 ÷ raw',
      'CPU µs/req',
      'CPU ÷ raw, median (min–max)',
      'CPU ÷ mean of both raw',
    ],
    rows.map((r) => [
      r.case,
      r.server,
      r.requestsPerSecond.toFixed(0),
      showSpread(r.throughputRatio),
      String(r.p99Ms),
      showSpread(r.p99Ratio),
      r.cpuMicrosPerRequest.toFixed(1),
      showSpread(r.cpuRatio),
      showSpread(r.cpuRatioToBoth),
    ]),
  );
  return rows;
}
