/**
 * RPC faults under a paid call, with the real scanners: a fault-injecting proxy sits between the
 * service and the sandbox RPC. A transient fault (a few 429s, a 500, a reset, some latency) ends
 * in a 200 after retry, settled once; a permanent one ends in a clean 500 (`scan_failed`, no
 * stack) within the scan deadline, nothing settled, and the same payment then buys the result
 * once the fault is gone.
 *
 * Only the scanner's own reads are spoiled, so the payment path (its funds check and any
 * settlement lookup) keeps working: for /scan/token, /scan/pumpfun and /scan/program, every
 * `getMultipleAccounts` (read by those scanners only); for /scan/wallet, the `getAccountInfo` of
 * the scanned wallet itself (the funds check reads the payer's USDC account, another address);
 * for /verify/tx, the `getTransaction` of the scanned signature (a lookup reads others); for
 * POST /simulate/tx (the manifest's USDC transfer), every `getMultipleAccounts` and
 * `simulateTransaction`, which the scan sends in parallel: each method gets the fault as if it
 * were the only one (its n-th request, the n-th read), so both fail in every case. A 200 must be the right answer
 * (for the simulation, exactly the manifest's token changes), and a settled payment must have its
 * stored response: the same payment, presented again, gets the same bytes and costs nothing more.
 *
 * Each endpoint's cases share one sandbox chain (starting one per case was most of the file's
 * time); each case still has a service, proxy, payer and payTo of its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { concretePath, type PaidEndpoint, SCAN_ENDPOINTS, type ScanId } from '../../src/catalog.js';
import type { SimulationScenario } from '../../src/sandbox/scenarios/manifest.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { createRpc } from '../../src/solana/rpc.js';
import {
  type Fault,
  type FaultProxy,
  type FaultRequest,
  PASS,
  startFaultProxy,
} from '../helpers/fault-proxy.js';
import { PAYER_USDC, type PaidSandbox, simulationsOn, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, v2Payment } from '../helpers/payments.js';

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** A signature no transaction has: the scan answers "not found" once it can read. */
const UNKNOWN_SIGNATURE = '5'.repeat(88);
/**
 * Deadlines here bound a hang, not a busy machine's slowness: a scan the fault does not touch may
 * take seconds (a 3 s scan deadline failed the fault-free call after a permanent fault at a load of
 * 20). A transient fault must end in a 200: its deadlines are far above the fault's own delays
 * (400 ms of latency, a 1 s Retry-After). A permanent fault must end in a 500: most end by the RPC
 * client's retries (3). A hang or a slow drip ends by the scan deadline (3 s), before the retries
 * (four 1 s timeouts) are spent: on Node 20 an RPC timeout is lost when its signal is garbage
 * collected, since `AbortSignal.any` holds it weakly (nodejs/node#57736), and a request so left
 * hanging as the breaker's half-open probe fails the fault-free call after it; the scan's own
 * signal is held, and its deadline ends every request of the scan. (That fault-free call still
 * has only those 3 s: these two cases remain bound by a busy machine's speed.)
 */
interface Deadlines {
  readonly scanMs: number;
  readonly rpcMs: number;
}
const FAILING_BY_RETRIES: Deadlines = { scanMs: 60_000, rpcMs: 1_000 };
const FAILING_BY_DEADLINE: Deadlines = { scanMs: 3_000, rpcMs: 1_000 };
const PATIENT: Deadlines = { scanMs: 60_000, rpcMs: 5_000 };
const TEST_TIMEOUT_MS = 300_000;

/** The simulation /simulate/tx is sent. */
const SIMULATION = 'sim:usdc-transfer';

interface Case {
  readonly name: string;
  /** The fault for the n-th scanner read (1-based). */
  readonly fault: (n: number) => Fault;
  /** A permanent fault's deadlines, when not FAILING_BY_RETRIES. */
  readonly deadlines?: Deadlines;
}

const PASS_FAULT: Fault = { kind: 'pass' };

const TRANSIENT: readonly Case[] = [
  {
    name: 'two 429s (the first with Retry-After: 1)',
    fault: (n) => (n === 1 ? { kind: '429', retryAfter: '1' } : n === 2 ? { kind: '429' } : PASS_FAULT),
  },
  { name: 'one 500', fault: (n) => (n === 1 ? { kind: '500' } : PASS_FAULT) },
  { name: 'one connection reset', fault: (n) => (n === 1 ? { kind: 'reset' } : PASS_FAULT) },
  { name: 'one truncated body', fault: (n) => (n === 1 ? { kind: 'truncated' } : PASS_FAULT) },
  { name: 'latency under the timeout on every read', fault: () => ({ kind: 'latency', ms: 400 }) },
];

const PERMANENT: readonly Case[] = [
  { name: 'always 500', fault: () => ({ kind: '500' }) },
  { name: 'always 429', fault: () => ({ kind: '429' }) },
  { name: 'always a reset', fault: () => ({ kind: 'reset' }) },
  { name: 'always malformed JSON', fault: () => ({ kind: 'malformed' }) },
  { name: 'always a truncated body', fault: () => ({ kind: 'truncated' }) },
  { name: 'always a wrong JSON-RPC id', fault: () => ({ kind: 'wrong-id' }) },
  {
    name: 'a slow drip past the timeout',
    // Longer than the scan deadline (about 40 bytes, one every 400 ms), so the scan's own
    // deadline ends it even when the RPC timeout is lost (see FAILING_BY_DEADLINE).
    fault: () => ({ kind: 'drip', intervalMs: 400 }),
    deadlines: FAILING_BY_DEADLINE,
  },
  { name: 'a hang', fault: () => ({ kind: 'hang' }), deadlines: FAILING_BY_DEADLINE },
];

interface Rig {
  readonly proxy: FaultProxy;
  readonly price: bigint;
  /** The case's payer's and payTo's USDC balances, to compare before and after a call. */
  balances(): Promise<{ payer: bigint; payTo: bigint }>;
  /** A fresh payment for the call. */
  payment(): Promise<string>;
  /** The paid call: a GET of the subject, or the POST of the simulation's body. */
  call(header: string): Promise<Response>;
  /** Fails unless `text` is the right 200 answer for the subject. */
  checkResult(text: string): void;
}

/**
 * One paid sandbox (chain, facilitators) per endpoint, shared by its cases, which run at once:
 * each case has its own fault proxy, its own instance of the service behind it (its own breaker,
 * state and result cache, so no case's scan is answered from another's), its own payer and its
 * own payTo, so no case sees another's faults or balances.
 */
interface Shared {
  readonly s: PaidSandbox;
  readonly simulation: SimulationScenario | null;
}

/** The subject of each endpoint, and the RPC reads only its scanner makes (the ones spoiled). */
function subjectOf(
  endpoint: ScanId,
  s: PaidSandbox,
  simulation: SimulationScenario | null,
): { subject: string; scannerRead: (request: { method: string; params: unknown }) => boolean } {
  const subject = {
    token: USDC_MINT,
    pumpfun: USDC_MINT,
    program: TOKEN_PROGRAM,
    wallet: s.payer.address,
    tx: UNKNOWN_SIGNATURE,
    simulate: simulation?.transaction ?? '',
  }[endpoint];
  const first = (params: unknown) => Array.isArray(params) && params[0] === subject;
  const scannerRead = ({ method, params }: { method: string; params: unknown }) => {
    if (endpoint === 'wallet') return method === 'getAccountInfo' && first(params);
    if (endpoint === 'tx') return method === 'getTransaction' && first(params);
    if (endpoint === 'simulate') return method === 'getMultipleAccounts' || method === 'simulateTransaction';
    return method === 'getMultipleAccounts';
  };
  return { subject, scannerRead };
}

/** The seeded simulation sent to /simulate/tx, built on `s`'s chain. */
async function seedSimulation(s: PaidSandbox): Promise<SimulationScenario> {
  const built = await simulationsOn(s);
  return built.find((x) => x.name === SIMULATION)!;
}

/** The right 200 answer: a ScanResult; for the simulation, exactly the manifest's flags and token changes. */
function resultCheck(simulation: SimulationScenario | null) {
  return (text: string) => {
    const body = JSON.parse(text);
    assert.equal(typeof body.risk_score, 'number', text);
    if (simulation === null) return;
    assert.deepEqual(body.flags, simulation.expect.flags, text);
    const changes = body.evidence.token_changes.map((t: any) => `${t.owner} ${t.mint} ${t.change}`);
    const expected = simulation.expect.tokenChanges!.map((t) => `${t.owner} ${t.mint} ${t.change}`);
    assert.deepEqual(changes.sort(), expected.sort());
  };
}

/** The endpoint's shared sandbox for its describe block: started in `before`, closed in `after`. */
function useShared(endpoint: PaidEndpoint): { current: Shared | undefined } {
  const shared: { current: Shared | undefined } = { current: undefined };
  before(async () => {
    const s = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    shared.current = { s, simulation: endpoint.method === 'POST' ? await seedSimulation(s) : null };
  });
  after(async () => {
    await shared.current?.s.close();
  });
  return shared;
}

async function withRig(
  shared: Shared,
  endpoint: PaidEndpoint & { readonly id: ScanId },
  kase: Case,
  deadlines: Deadlines,
  run: (rig: Rig) => Promise<void>,
): Promise<void> {
  const { s, simulation } = shared;
  const [payer, payTo] = await Promise.all([s.newPayer(PAYER_USDC), s.newPayer(0n)]);
  const { subject, scannerRead } = subjectOf(endpoint.id, s, simulation);
  const proxy = await startFaultProxy(s.rpcServer.url);
  let n = 0;
  const nth = (request: FaultRequest) => (endpoint.method === 'POST' ? request.n : ++n);
  proxy.setPlan((request) => (scannerRead(request) ? kase.fault(nth(request)) : PASS_FAULT));
  try {
    // The breaker opens on a permanent fault; once the fault is gone, the retries' backoff (over
    // 0.7 s in all before a scan gives up) outlasts its half-open delay, so the payment's second try gets through.
    const rpc = createRpc({
      urls: [proxy.url],
      timeoutMs: deadlines.rpcMs,
      breaker: { halfOpenAfterMs: 300 },
    });
    const instance = await s.startInstance(
      { mode: selling(SCANNERS), rpc },
      {
        SCAN_TIMEOUT_MS: String(deadlines.scanMs),
        RPC_TIMEOUT_MS: String(deadlines.rpcMs),
        // The facilitators are not what this file spoils, and every case calls them at once:
        // their deadlines only bound a hang (the helper's 2 s and 5 s ones fail on a busy machine).
        FACILITATOR_TIMEOUT_MS: '30000',
        SETTLE_TIMEOUT_MS: '30000',
        PAY_TO: payTo.address,
      },
    );
    const send = (headers: Record<string, string>) =>
      endpoint.method === 'GET'
        ? fetch(instance.url + concretePath(endpoint, subject), { headers })
        : fetch(instance.url + endpoint.path, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ transaction: subject }),
          });
    const offer = await send({});
    assert.equal(offer.status, 402, await offer.text());
    const required = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
    const requirements = required.accepts[0] as PaymentRequirements;
    assert.equal(requirements.payTo, payTo.address, "the case's own payTo");
    await run({
      proxy,
      price: BigInt(requirements.amount),
      balances: async () => ({
        payer: await s.usdcBalance(payer.address),
        payTo: await s.usdcBalance(payTo.address),
      }),
      payment: async () =>
        encodeHeader(await v2Payment(payer, s.rpcServer.url, requirements, required.resource.url)),
      call: (header) => send({ 'PAYMENT-SIGNATURE': header }),
      checkResult: resultCheck(simulation),
    });
  } finally {
    await proxy.close();
  }
}

/** The fault was applied; for the simulation, to `simulateTransaction` itself too. */
function assertFaulted(endpoint: PaidEndpoint, proxy: FaultProxy): void {
  assert.ok(proxy.applied.size > 0, 'the fault was applied');
  if (endpoint.method === 'POST') assert.ok((proxy.seen.get('simulateTransaction') ?? 0) > 0);
}

/** A settled payment has its stored response: presented again, the same bytes, and nothing more charged. */
async function assertStored(rig: Rig, header: string, text: string): Promise<void> {
  const settled = await rig.balances();
  const again = await rig.call(header);
  assert.equal(again.status, 200);
  assert.equal(await again.text(), text, 'the stored response of the settled payment');
  assert.deepEqual(await rig.balances(), settled, 'charged once');
}

/** A clean 500: JSON naming the failure, no stack trace or source path. */
function assertCleanScanFailure(status: number, text: string) {
  assert.equal(status, 500, text);
  const body = JSON.parse(text) as { error?: unknown; risk_score?: unknown };
  assert.equal(body.error, 'scan_failed', text);
  assert.equal(body.risk_score, undefined);
  assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|stack/i, 'no stack trace in the answer');
}

// The scans' endpoints (a watch's baseline is the scan of its kind, run by the same scanners).
for (const endpoint of SCAN_ENDPOINTS) {
  describe(`${endpoint.method} ${endpoint.path} behind a faulty RPC`, { concurrency: true }, () => {
    const shared = useShared(endpoint);
    for (const kase of TRANSIENT) {
      it(`transient: ${kase.name} → 200 after retry, settled once`, {
        timeout: TEST_TIMEOUT_MS,
      }, async () => {
        await withRig(shared.current!, endpoint, kase, PATIENT, async (rig) => {
          const { proxy, price } = rig;
          const before = await rig.balances();
          const header = await rig.payment();
          const res = await rig.call(header);
          const text = await res.text();
          assert.equal(res.status, 200, text);
          rig.checkResult(text);
          assertFaulted(endpoint, proxy);
          assert.deepEqual(await rig.balances(), {
            payer: before.payer - price,
            payTo: before.payTo + price,
          });
          await assertStored(rig, header, text);
        });
      });
    }

    for (const kase of PERMANENT) {
      it(`permanent: ${kase.name} → clean 500, nothing settled, the payment reusable`, {
        timeout: TEST_TIMEOUT_MS,
      }, async () => {
        await withRig(shared.current!, endpoint, kase, kase.deadlines ?? FAILING_BY_RETRIES, async (rig) => {
          const { proxy, price } = rig;
          const header = await rig.payment();
          const before = await rig.balances();
          const res = await rig.call(header);
          assertCleanScanFailure(res.status, await res.text());
          assertFaulted(endpoint, proxy);
          assert.deepEqual(await rig.balances(), before, 'nothing settled for a failed scan');
          proxy.setPlan(PASS);
          const again = await rig.call(header);
          const text = await again.text();
          assert.equal(again.status, 200, text);
          rig.checkResult(text);
          assert.deepEqual(await rig.balances(), {
            payer: before.payer - price,
            payTo: before.payTo + price,
          });
          await assertStored(rig, header, text);
        });
      });
    }
  });
}
