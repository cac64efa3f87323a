/**
 * What the watch triggers cost and how fast they report.
 *
 * Cost: the service (402 offers, as production configures it) and fresh token scans run in this
 * process against the seeded sandbox RPC (in a worker thread, as another machine), first with no
 * watch, then with 1,000 active watches over the seeded subjects followed by their WebSocket
 * subscriptions (how many is printed), interleaved round by round: subscriptions only,
 * as the service runs them (the periodic check started: one scan every interval ÷ budget, 6 s by
 * default), or with a check's whole budget of scans run back to back, the worst a round can meet.
 *
 * Delay: from the return of an actor's sendTransaction to the trigger's change report, with 50 ms
 * added to every RPC call of the re-scan and the default debounce; the subscription's notification
 * itself comes straight from the sandbox's WebSocket. Then on to the webhook: the change recorded
 * in the embedded watch state (LMDB, as the service keeps it), signed and POSTed by its worker to
 * a local receiver. Each round acts on a freshly restored chain.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDefaultRpcTransport,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createSolanaRpcFromTransport,
  getBase58Encoder,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { parseConfig } from '../src/config.js';
import { performAction } from '../src/sandbox/actors/transactions.js';
import { startSandboxRpc } from '../src/sandbox/rpc/server.js';
import { action, type ScenarioManifest, seededChain } from '../src/sandbox/scenarios/index.js';
import { SCANNERS } from '../src/scans/registry.js';
import { createService, OFFERS_ONLY } from '../src/service/index.js';
import { generateKeyPem, signingKeyFromPem } from '../src/signing/key.js';
import type { SolanaRpc } from '../src/solana/rpc.js';
import { openLmdbWatchState } from '../src/state/watches/lmdb.js';
import type { AlertPayload, Watch, WatchKind, WatchState } from '../src/watch/model.js';
import {
  type AccountFeed,
  createAccountFeed,
  type FreshScan,
  freshScan,
  WatchTriggers,
} from '../src/watch/triggers/index.js';
import { startFacilitatorStub } from '../test/helpers/facilitator-stub.js';
import { delayedTransport } from '../test/helpers/rpc-transports.js';
import { autocannon, PINNING } from './lib/processes.js';
import { median, printTable, type Spread, showSpread, spread } from './lib/report.js';
import { startSandboxRpcInWorker } from './lib/sandbox-rpc-worker.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const FEE_PAYER = '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4';
const WATCHES = 1_000;
const RPC_LATENCY_MS = 50;
const DEFAULTS = parseConfig({}).watch;

/** Watches as the paid door makes them: a baseline scan of each subject, shared by its watches. */
async function watchesOver(manifest: ScenarioManifest, scan: FreshScan, count: number): Promise<Watch[]> {
  const subjects = manifest.subjects.filter(
    (s): s is Extract<typeof s, { address: string }> =>
      s.kind !== 'tx' && !s.name.startsWith('mainnet:') && 'address' in s,
  );
  const baselines = await Promise.all(
    subjects.map(async (s) => ({
      kind: s.kind as WatchKind,
      subject: s.address,
      latest: await scan(s.kind as WatchKind, s.address),
    })),
  );
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    ...baselines[i % baselines.length]!,
    id: randomUUID(),
    webhook: 'https://hooks.example/watch',
    hours: 24,
    createdAt: now,
    expiresAt: now + 86_400_000,
    status: 'active',
    secret: 'whsec_YmVuY2g=',
    version: 0,
  }));
}

/** Fresh scans of one token, four at a time, for `seconds`: scans per second. */
async function scanThroughput(scan: FreshScan, mint: string, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < until) {
        await scan('token', mint);
        done += 1;
      }
    }),
  );
  return done / seconds;
}

type Setting = 'none' | 'subscriptions' | 'started' | 'check';
const SETTINGS: readonly Setting[] = ['none', 'subscriptions', 'started', 'check'];
const SETTING_NAMES: Record<Setting, string> = {
  none: 'no watch',
  subscriptions: `${WATCHES} watches, subscriptions open`,
  started: `${WATCHES} watches, started: the check's scans spread over the interval`,
  check: `${WATCHES} watches, a check's ${DEFAULTS.rescanBudget} scans back to back (worst case)`,
};

export interface WatchCostRow {
  readonly setting: string;
  readonly subscriptions: number;
  readonly scansPerSecond: Spread;
  readonly offersPerSecond: Spread;
}

interface CostWorld {
  readonly scan: FreshScan;
  readonly watches: readonly Watch[];
  readonly feed: AccountFeed;
  readonly mint: string;
  readonly offerUrl: string;
}

/** One round of one setting: triggers as the setting has them, then scans, then 402s. */
async function costRound(world: CostWorld, setting: Setting, seconds: number) {
  const triggers = new WatchTriggers({
    watches: async () => (setting === 'none' ? [] : world.watches),
    rescan: world.scan,
    onChange: async () => {},
    feed: world.feed,
    rescanBudget: DEFAULTS.rescanBudget,
    debounceMs: DEFAULTS.debounceMs,
  });
  await triggers.sync();
  const subscriptions = triggers.followed;
  while (world.feed.open < subscriptions) await new Promise((r) => setTimeout(r, 10));
  if (setting === 'started') triggers.start(DEFAULTS.rescanIntervalMs);
  const check = setting === 'check' ? triggers.check() : Promise.resolve();
  const scans = await scanThroughput(world.scan, world.mint, seconds);
  const offers = (await autocannon(world.offerUrl, seconds, 50, undefined, PINNING?.load)).requestsPerSecond;
  await check;
  await triggers.stop();
  return { scans, offers, subscriptions };
}

async function measureCost(options: { seconds: number; rounds: number }): Promise<WatchCostRow[]> {
  const sandbox = await startSandboxRpcInWorker();
  const stub = await startFacilitatorStub(FEE_PAYER);
  const config = parseConfig({
    PAY_TO,
    FACILITATOR_URLS: stub.url,
    VERIFIED_TOKENS_URL: 'none',
    SOLANA_RPC_URL: sandbox.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  });
  const service = await createService(config, { healthChecks: {}, mode: OFFERS_ONLY });
  await service.start();
  const api = await service.listen();
  const scan = freshScan({
    scanners: SCANNERS,
    rpc: createSolanaRpc(sandbox.url) as never,
    timeoutMs: 20_000,
  });
  const mint = (sandbox.manifest.subjects.find((s) => s.name === 'token:clean') as { address: string })
    .address;
  const world: CostWorld = {
    scan,
    watches: await watchesOver(sandbox.manifest, scan, WATCHES),
    feed: createAccountFeed({ wsUrl: sandbox.url.replace(/^http/, 'ws') }),
    mint,
    offerUrl: `${api.url}/scan/token/${mint}`,
  };
  const runs = new Map(SETTINGS.map((s) => [s, [] as Awaited<ReturnType<typeof costRound>>[]]));
  try {
    for (let round = 0; round < options.rounds; round++) {
      // Alternate the order, so a setting is not always measured just after the same one.
      const order = round % 2 === 0 ? SETTINGS : [...SETTINGS].reverse();
      for (const setting of order) runs.get(setting)!.push(await costRound(world, setting, options.seconds));
    }
  } finally {
    world.feed.close();
    await api.close();
    await service.stop();
    await stub.close();
    await sandbox.close();
  }
  return SETTINGS.map((setting) => {
    const mine = runs.get(setting)!;
    return {
      setting: SETTING_NAMES[setting],
      subscriptions: Math.max(...mine.map((r) => r.subscriptions)),
      scansPerSecond: spread(mine.map((r) => r.scans)),
      offersPerSecond: spread(mine.map((r) => r.offers)),
    };
  });
}

const ACTIONS = [
  ['token:authorities-live', 'mint'],
  ['token:authorities-live', 'freeze'],
  ['program:single-key', 'upgrade'],
  ['pumpfun:dev-holding', 'sell-dev-buy'],
  ['token:pool-lp-creator', 'burn-lp'],
] as const;

/** A local webhook: resolves `arrived` with the time the first delivery's body has come in. */
async function receiver() {
  let arrived: (at: number) => void = () => {};
  const delivery = new Promise<number>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived(performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, delivery, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The embedded watch state in a directory of its own, holding `watch`. */
async function stateHolding(watch: Watch): Promise<{ state: WatchState; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'watch-bench-'));
  const state = await openLmdbWatchState(dir, {
    mode: 'sandbox',
    signingKey: signingKeyFromPem(generateKeyPem()),
    maxWatches: 10,
    maxWatchesPerSubject: 10,
  });
  await state.create(watch);
  return { state, dir };
}

interface DelayRound {
  readonly toReport: number;
  readonly toDelivery: number;
}

/**
 * One round: a fresh chain, a watch on the subject, the actor's transaction, the change report,
 * the delivery at the webhook.
 */
async function delayOnce(subjectName: string, actionName: string): Promise<DelayRound> {
  const { chain, manifest } = await seededChain({ autoAdvance: true });
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  const slowRpc = createSolanaRpcFromTransport(
    delayedTransport(createDefaultRpcTransport({ url: server.url }), RPC_LATENCY_MS),
  );
  const scan = freshScan({ scanners: SCANNERS, rpc: slowRpc as unknown as SolanaRpc, timeoutMs: 20_000 });
  const [made] = await watchesOver(
    { ...manifest, subjects: manifest.subjects.filter((s) => s.name === subjectName) },
    scan,
    1,
  );
  const webhook = await receiver();
  const watch = { ...made!, webhook: webhook.url };
  const { state, dir } = await stateHolding(watch);
  const feed = createAccountFeed({ wsUrl: server.wsUrl });
  let reported: (at: number) => void = () => {};
  const change = new Promise<number>((resolve) => {
    reported = resolve;
  });
  const triggers = new WatchTriggers({
    watches: async () => [watch],
    rescan: scan,
    onChange: async (w: Watch, payload: AlertPayload) => {
      reported(performance.now());
      await state.recordChange(w.id, w.version, payload);
    },
    feed,
    rescanBudget: DEFAULTS.rescanBudget,
    debounceMs: DEFAULTS.debounceMs,
  });
  try {
    await triggers.sync();
    while (feed.open < triggers.followed) await new Promise((r) => setImmediate(r));
    const planned = action(manifest, subjectName, actionName);
    const actor = await createKeyPairSignerFromPrivateKeyBytes(
      new Uint8Array(getBase58Encoder().encode(planned.actor.privateKey)),
    );
    const found = manifest.subjects.find((s) => s.name === subjectName)!;
    await performAction(createSolanaRpc(server.url) as Rpc<SolanaRpcApi>, found, planned, actor);
    const sent = performance.now();
    return { toReport: (await change) - sent, toDelivery: (await webhook.delivery) - sent };
  } finally {
    await triggers.stop();
    feed.close();
    await state.close();
    rmSync(dir, { recursive: true, force: true });
    await webhook.close();
    chain.stop();
    await server.close();
  }
}

export interface WatchDelayRow {
  readonly action: string;
  readonly delayMs: Spread;
  /** On to the webhook's receipt of the signed delivery. */
  readonly deliveryMs: Spread;
}

export async function runWatchTriggersBench(options: {
  seconds: number;
  rounds: number;
  delayRounds: number;
}) {
  const cost = await measureCost(options);
  printTable(
    `Watch machinery in the service's process: ${WATCHES} watches vs none (${options.rounds} interleaved rounds of ${options.seconds} s; a periodic check re-scans ${DEFAULTS.rescanBudget} subjects, one at a time)`,
    [
      'setting',
      'subscriptions open',
      'fresh token scans/s, median (min–max)',
      '402 offers/s, median (min–max)',
    ],
    cost.map((r) => [
      r.setting,
      String(r.subscriptions),
      showSpread(r.scansPerSecond, 1),
      showSpread(r.offersPerSecond, 0),
    ]),
  );
  const delays: WatchDelayRow[] = [];
  for (const [subjectName, actionName] of ACTIONS) {
    const rounds: DelayRound[] = [];
    for (let round = 0; round < options.delayRounds; round++)
      rounds.push(await delayOnce(subjectName, actionName));
    delays.push({
      action: `${subjectName} ${actionName}`,
      delayMs: spread(rounds.map((r) => r.toReport)),
      deliveryMs: spread(rounds.map((r) => r.toDelivery)),
    });
  }
  printTable(
    `Delay from an actor's transaction to the change report and to the signed delivery at the webhook (${RPC_LATENCY_MS} ms per RPC call, debounce ${DEFAULTS.debounceMs} ms, embedded watch state, ${options.delayRounds} rounds)`,
    [
      'action',
      'to the report, ms, median (min–max)',
      'to the webhook, ms, median (min–max)',
      'of which debounce, ms',
    ],
    delays.map((d) => [
      d.action,
      showSpread(d.delayMs, 0),
      showSpread(d.deliveryMs, 0),
      String(DEFAULTS.debounceMs),
    ]),
  );
  return {
    cost,
    delays,
    medianDelayMs: median(delays.map((d) => d.delayMs.median)),
    medianDeliveryMs: median(delays.map((d) => d.deliveryMs.median)),
  };
}
