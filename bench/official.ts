/**
 * The service against the official x402 middleware (@x402/hono on a bare Hono app served by
 * @hono/node-server, bench/servers/official-hono.ts) selling the same wallet scan at the same
 * price in Solana mainnet USDC to the same payTo through the same local facilitator (the
 * sandbox's, settling on the sandbox chain in this process), and both against a bare
 * node:http server answering the service's very bytes. Two cases: the 402 offer, and the paid
 * cached hit (a fresh payment whose scan result is cached: verify + settle + cached result;
 * the official middleware's handler answers the same cached body). Each paid request carries
 * a payment of its own, signed before the round by the official client scheme, so a round is
 * a fixed number of calls. Ratios are medians of per-round ratios, rounds interleaved.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bs58 from 'bs58';
import { type PaidSandbox, startPaidSandbox } from '../test/helpers/paid-sandbox.js';
import { buildPayments } from '../test/helpers/payment-pool.js';
import { offerOf } from '../test/helpers/payments.js';
import {
  autocannon,
  autocannonOnce,
  type ChildServer,
  type LoadResult,
  PINNING,
  startChildServer,
} from './lib/processes.js';
import { recordResponse } from './lib/record-response.js';
import { median, printTable, type Spread, showSpread, spread } from './lib/report.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const SERVERS = ['service', 'official @x402/hono', 'node:http'] as const;
type ServerName = (typeof SERVERS)[number];
const CONNECTIONS = 50;
/** Wallet scans a payer is funded for. */
const CALLS_PER_PAYER = 1000;

interface Run extends LoadResult {
  readonly cpuMicrosPerRequest: number;
}

export interface OfficialRow {
  readonly case: string;
  readonly server: ServerName;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerRequest: number;
  /** Per-round ratios (this server ÷ the other, same round): median, lowest and highest round. */
  readonly vsOfficial: { readonly throughput: Spread; readonly cpu: Spread };
  readonly vsNodeHttp: { readonly throughput: Spread; readonly cpu: Spread };
}

/** One measured run of `load` against `server`, with the server's CPU time per request. */
async function measured(server: ChildServer, load: () => Promise<LoadResult>): Promise<Run> {
  const before = server.cpuMicros();
  const result = await load();
  return { ...result, cpuMicrosPerRequest: (server.cpuMicros() - before) / Math.max(result.total, 1) };
}

/** Interleaved rounds (order alternating) of `one(server, round)`; round -1 warms up. */
async function rounds(count: number, one: (name: ServerName, round: number) => Promise<Run>) {
  const runs = new Map<ServerName, Run[]>(SERVERS.map((s) => [s, []]));
  for (const name of SERVERS) await one(name, -1);
  for (let round = 0; round < count; round++) {
    const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const name of order) runs.get(name)!.push(await one(name, round));
  }
  return runs;
}

function rowsOf(caseName: string, runs: Map<ServerName, Run[]>): OfficialRow[] {
  const ratio = (name: ServerName, base: ServerName, f: (r: Run) => number) =>
    spread(runs.get(name)!.map((r, i) => f(r) / Math.max(f(runs.get(base)![i]!), 1e-9)));
  return SERVERS.map((name) => {
    const mine = runs.get(name)!;
    const vs = (base: ServerName) => ({
      throughput: ratio(name, base, (r) => r.requestsPerSecond),
      cpu: ratio(name, base, (r) => r.cpuMicrosPerRequest),
    });
    return {
      case: caseName,
      server: name,
      requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
      p99Ms: median(mine.map((r) => r.p99Ms)),
      cpuMicrosPerRequest: median(mine.map((r) => r.cpuMicrosPerRequest)),
      vsOfficial: vs('official @x402/hono'),
      vsNodeHttp: vs('node:http'),
    };
  });
}

interface Bench {
  readonly sandbox: PaidSandbox;
  readonly servers: Map<ServerName, ChildServer>;
  readonly dir: string;
  readonly path: string;
}

async function startServers(sandbox: PaidSandbox, dir: string, path: string): Promise<Bench> {
  const cpu = PINNING?.server;
  const servers = new Map<ServerName, ChildServer>();
  const facilitator = sandbox.facilitators[0]!.url;
  servers.set(
    'service',
    await startChildServer(
      here('./servers/service.ts'),
      {
        PAY_TO: sandbox.payTo,
        FACILITATOR_URLS: facilitator,
        SOLANA_RPC_URL: sandbox.rpcServer.url,
        STATE_DIR: join(dir, 'state'),
        LOG_LEVEL: 'info',
        TAKE_PAYMENTS: 'true',
      },
      cpu,
    ),
  );
  const service = servers.get('service')!.url;
  // The cached hit: one sale first puts the subject's result in the service's cache.
  const warm = await paidRequests(sandbox, service, path, 1);
  const sale = await recordResponse(service + path, warm[0]!.headers);
  if (sale.status !== 200) throw new Error(`the warm-up sale answered ${sale.status}: ${sale.body}`);
  writeFileSync(join(dir, 'result.json'), sale.body);
  writeFileSync(
    join(dir, 'responses.json'),
    JSON.stringify({ [path]: await recordResponse(service + path), [`${path}?paid`]: sale }),
  );
  servers.set(
    'official @x402/hono',
    await startChildServer(
      here('./servers/official-hono.ts'),
      { PAY_TO: sandbox.payTo, FACILITATOR_URL: facilitator, RESULT_FILE: join(dir, 'result.json') },
      cpu,
    ),
  );
  servers.set(
    'node:http',
    await startChildServer(here('./servers/raw.ts'), { RESPONSES: join(dir, 'responses.json') }, cpu),
  );
  return { sandbox, servers, dir, path };
}

/** `count` paid requests for `path` on `base`, each with a payment of its own, for that server's offer. */
async function paidRequests(sandbox: PaidSandbox, base: string, path: string, count: number) {
  const offer = await offerOf(base + path);
  const payers = await Promise.all(
    Array.from({ length: Math.ceil(count / CALLS_PER_PAYER) }, () =>
      sandbox.newPayer(BigInt(offer.v2.amount) * BigInt(CALLS_PER_PAYER)),
    ),
  );
  const payments = await buildPayments({
    payers,
    rpcUrl: sandbox.rpcServer.url,
    requirements: offer.v2,
    resourceBase: new URL(offer.resourceUrl).origin,
    paths: Array.from({ length: count }, () => path),
  });
  return payments.map((p) => ({ path: p.path, headers: { 'PAYMENT-SIGNATURE': p.header } }));
}

async function offerCase(b: Bench, seconds: number, count: number) {
  return rounds(count, (name, round) => {
    const server = b.servers.get(name)!;
    return measured(server, () =>
      autocannon(server.url + b.path, round < 0 ? 2 : seconds, CONNECTIONS, undefined, PINNING?.load),
    );
  });
}

/** The paid cached hit, each paid call with a payment of its own. */
async function paidCase(b: Bench, calls: number, count: number) {
  const files = new Map<string, string>();
  for (const name of ['service', 'official @x402/hono'] as const) {
    const requests = await paidRequests(b.sandbox, b.servers.get(name)!.url, b.path, calls * (count + 1));
    for (let round = -1; round < count; round++) {
      const file = join(b.dir, `paid-${name.replace(/\W+/g, '-')}-${round + 1}.json`);
      writeFileSync(file, JSON.stringify(requests.slice((round + 1) * calls, (round + 2) * calls)));
      files.set(`${name}/${round}`, file);
    }
  }
  // node:http answers by path: the recorded sale sits under `?paid`; it gets payment headers
  // of the same size (the service's warm-up ones), which it does not read.
  const rawFile = join(b.dir, 'paid-raw.json');
  const warmUp = JSON.parse(readFileSync(files.get('service/-1')!, 'utf8')) as { headers: object }[];
  // It is sent 20 times as many, or its CPU time would be a tick or two of the clock.
  const rawRequests = Array.from({ length: 20 }, () => warmUp.map((r) => ({ ...r, path: `${b.path}?paid` })));
  writeFileSync(rawFile, JSON.stringify(rawRequests.flat()));
  return rounds(count, async (name, round) => {
    const server = b.servers.get(name)!;
    const file = name === 'node:http' ? rawFile : files.get(`${name}/${round}`)!;
    const run = await measured(server, () => autocannonOnce(server.url, file, CONNECTIONS, PINNING?.load));
    if (run.non2xx > 0 || run.errors > 0)
      throw new Error(`${name}: ${run.non2xx} paid calls not answered 200, ${run.errors} errors`);
    return run;
  });
}

export async function runOfficialBench(options: {
  seconds: number;
  rounds: number;
  paidCalls: number;
  paidRounds: number;
}): Promise<OfficialRow[]> {
  const sandbox = await startPaidSandbox();
  const dir = mkdtempSync(join(tmpdir(), 'bench-official-'));
  let bench: Bench | undefined;
  try {
    bench = await startServers(sandbox, dir, `/scan/wallet/${bs58.encode(randomBytes(32))}`);
    const rows = [
      ...rowsOf('402 offer', await offerCase(bench, options.seconds, options.rounds)),
      ...rowsOf('paid cached hit', await paidCase(bench, options.paidCalls, options.paidRounds)),
    ];
    printOfficial(rows, options);
    return rows;
  } finally {
    for (const server of bench?.servers.values() ?? []) await server.stop();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function printOfficial(rows: readonly OfficialRow[], o: Parameters<typeof runOfficialBench>[0]) {
  const setup = PINNING
    ? `servers on CPU ${PINNING.server}, autocannon on CPU ${PINNING.load}`
    : 'not pinned (one CPU or no taskset)';
  printTable(
    `x402: service vs the official @x402/hono middleware and bare node:http (autocannon -c ${CONNECTIONS}; 402: ${o.rounds} interleaved rounds of ${o.seconds} s; paid: ${o.paidRounds} rounds of ${o.paidCalls} calls, a new payment each, sandbox facilitator; ${setup}; ratios are per round, as the median and the lowest–highest round)`,
    [
      'case',
      'server',
      'req/s',
      'p99 ms',
      'CPU µs/req',
      'req/s ÷ official',
      'CPU ÷ official',
      'req/s ÷ node:http',
      'CPU ÷ node:http',
    ],
    rows.map((r) => [
      r.case,
      r.server,
      r.requestsPerSecond.toFixed(0),
      String(r.p99Ms),
      r.cpuMicrosPerRequest.toFixed(1),
      showSpread(r.vsOfficial.throughput),
      showSpread(r.vsOfficial.cpu),
      showSpread(r.vsNodeHttp.throughput),
      showSpread(r.vsNodeHttp.cpu),
    ]),
  );
}
