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
 * for /verify/tx, the `getTransaction` of the scanned signature (a lookup reads others).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concretePath, type EndpointId, GET_ENDPOINTS } from '../../src/catalog.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createRpc } from '../../src/solana/rpc.js';
import { type Fault, type FaultProxy, PASS, startFaultProxy } from '../helpers/fault-proxy.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';

const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** A signature no transaction has: the scan answers "not found" once it can read. */
const UNKNOWN_SIGNATURE = '5'.repeat(88);
const SCAN_TIMEOUT_MS = 3_000;
const RPC_TIMEOUT_MS = 1_000;
const TEST_TIMEOUT_MS = 30_000;

type Endpoint = Exclude<EndpointId, 'simulate'>;

interface Case {
  readonly name: string;
  /** The fault for the n-th scanner read (1-based). */
  readonly fault: (n: number) => Fault;
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
  { name: 'a slow drip past the timeout', fault: () => ({ kind: 'drip', intervalMs: 40 }) },
  { name: 'a hang', fault: () => ({ kind: 'hang' }) },
];

interface Rig {
  readonly s: PaidSandbox;
  readonly proxy: FaultProxy;
  readonly url: string;
  readonly price: bigint;
  /** A fresh payment for `url`. */
  payment(): Promise<string>;
}

async function withRig(endpoint: Endpoint, kase: Case, run: (rig: Rig) => Promise<void>): Promise<void> {
  const s = await startPaidSandbox(
    { SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS), RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
    { scanners: SCANNERS },
  );
  const subject = {
    token: USDC_MINT,
    pumpfun: USDC_MINT,
    program: TOKEN_PROGRAM,
    wallet: s.payer.address,
    tx: UNKNOWN_SIGNATURE,
  }[endpoint];
  const first = (params: unknown) => Array.isArray(params) && params[0] === subject;
  const scannerRead = ({ method, params }: { method: string; params: unknown }) =>
    endpoint === 'wallet'
      ? method === 'getAccountInfo' && first(params)
      : endpoint === 'tx'
        ? method === 'getTransaction' && first(params)
        : method === 'getMultipleAccounts';
  const proxy = await startFaultProxy(s.rpcServer.url);
  let n = 0;
  proxy.setPlan((request) => (scannerRead(request) ? kase.fault(++n) : PASS_FAULT));
  try {
    // The breaker opens on a permanent fault; once the fault is gone, the retries' backoff (over
    // 0.7 s in all before a scan gives up) outlasts its half-open delay, so the payment's second try gets through.
    const rpc = createRpc({
      urls: [proxy.url],
      timeoutMs: RPC_TIMEOUT_MS,
      breaker: { halfOpenAfterMs: 300 },
    });
    const instance = await s.startInstance(
      { scanners: SCANNERS, rpc },
      { SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS), RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
    );
    const url = instance.url + concretePath(GET_ENDPOINTS.find((e) => e.id === endpoint)!, subject);
    const offer = await offerOf(url);
    await run({
      s,
      proxy,
      url,
      price: BigInt(offer.v2.amount),
      payment: async () =>
        encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl)),
    });
  } finally {
    await s.close();
    await proxy.close();
  }
}

/** A clean 500: JSON naming the failure, no stack trace or source path. */
function assertCleanScanFailure(status: number, text: string) {
  assert.equal(status, 500, text);
  const body = JSON.parse(text) as { error?: unknown; risk_score?: unknown };
  assert.equal(body.error, 'scan_failed', text);
  assert.equal(body.risk_score, undefined);
  assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|stack/i, 'no stack trace in the answer');
}

for (const { id, path } of GET_ENDPOINTS) {
  const endpoint = id as Endpoint;
  describe(`${path} behind a faulty RPC`, { concurrency: true }, () => {
    for (const kase of TRANSIENT) {
      it(`transient: ${kase.name} → 200 after retry, settled once`, {
        timeout: TEST_TIMEOUT_MS,
      }, async () => {
        await withRig(endpoint, kase, async ({ s, proxy, url, price, payment }) => {
          const before = await s.balances();
          const res = await pay(url, await payment());
          const text = await res.text();
          assert.equal(res.status, 200, text);
          assert.equal(typeof JSON.parse(text).risk_score, 'number');
          assert.ok(proxy.applied.size > 0, 'the fault was applied');
          assert.deepEqual(await s.balances(), { payer: before.payer - price, payTo: before.payTo + price });
        });
      });
    }

    for (const kase of PERMANENT) {
      it(`permanent: ${kase.name} → clean 500, nothing settled, the payment reusable`, {
        timeout: TEST_TIMEOUT_MS,
      }, async () => {
        await withRig(endpoint, kase, async ({ s, proxy, url, price, payment }) => {
          const header = await payment();
          const before = await s.balances();
          const res = await pay(url, header);
          assertCleanScanFailure(res.status, await res.text());
          assert.ok(proxy.applied.size > 0, 'the fault was applied');
          assert.deepEqual(await s.balances(), before, 'nothing settled for a failed scan');
          proxy.setPlan(PASS);
          const again = await pay(url, header);
          const text = await again.text();
          assert.equal(again.status, 200, text);
          assert.equal(typeof JSON.parse(text).risk_score, 'number');
          assert.deepEqual(await s.balances(), { payer: before.payer - price, payTo: before.payTo + price });
        });
      });
    }
  });
}
