/**
 * `risk-scan sandbox` with its RPC answering as a paid provider plan (`paid-plan`: 50 requests a
 * second, then HTTP 429), and paid scans sent at it through the official x402 client. The payer
 * signs through an RPC of its own on the same chain, as a customer does, so the plan's 50 a
 * second are the service's alone. Shared by the end-to-end test and the bench row
 * (bench/rate-limit.ts); `env` states the limit (RPC_RATE_LIMIT) or not, and anything else a
 * row compares (e.g. a fact store's setting).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import type { CacheStore } from '../../src/scans/cache-store.js';
import { payingFetch, startCustomerSandbox } from './customer-sandbox.js';

/** A pump.fun or token subject of the seeded manifest. */
export interface BurstSubject {
  readonly name: string;
  readonly kind: 'pumpfun' | 'token';
  readonly address: string;
}

/** One paid scan as its payer saw it. */
export interface PaidScan {
  readonly subject: BurstSubject;
  readonly status: number;
  readonly receipt: boolean;
  readonly flags: readonly string[];
  readonly ms: number;
}

export interface PaidPlanSandbox {
  readonly sandbox: RunningSandbox;
  /** Seeded pump.fun and token subjects whose scans raise no `*_UNAVAILABLE` flag on an RPC that serves everything. */
  readonly subjects: readonly BurstSubject[];
  /** A paid scan of `subject` through the official client. */
  scan(subject: BurstSubject): Promise<PaidScan>;
  /** HTTP 429s the plan's RPC has answered since the start. */
  rateLimited(): number;
  close(): Promise<void>;
}

/** Generous bounds on a hang, not on speed: under the limit a burst's scans wait their turn. */
const PATIENT = { SCAN_TIMEOUT_MS: '120000', PAYMENT_CLAIM_TTL_SECONDS: '600' };

/** No result is kept: every paid call scans (a benchmark's repeated subjects too). */
export const NO_CACHE: CacheStore = { get: async () => undefined, set: async () => undefined };

function burstSubjects(sandbox: RunningSandbox): BurstSubject[] {
  const subjects: ScenarioSubject[] = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')).subjects;
  return subjects.flatMap((s) => {
    if ((s.kind !== 'pumpfun' && s.kind !== 'token') || s.name.startsWith('mainnet:')) return [];
    if ((s.expect.flags ?? []).some((f) => f.endsWith('_UNAVAILABLE'))) return [];
    return [{ name: s.name, kind: s.kind, address: (s as { address: string }).address }];
  });
}

export async function startPaidPlanSandbox(
  env: Record<string, string>,
  options: {
    cache?: CacheStore;
    /** The plan's clock (default Date.now); one standing still never refills the plan's bucket. */
    planClock?: () => number;
  } = {},
): Promise<PaidPlanSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'paid-plan-'));
  let payerRpc: SandboxRpc | undefined;
  let sandbox: RunningSandbox | undefined;
  try {
    sandbox = await startCustomerSandbox(
      dir,
      'paid-plan',
      { ...PATIENT, ...env },
      options.cache,
      options.planClock,
    );
    payerRpc = await startSandboxRpc({ chain: sandbox.chain, host: '127.0.0.1', port: 0 });
  } catch (e) {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const running = sandbox;
  const pay = await payingFetch(running, payerRpc.url);
  return {
    sandbox: running,
    subjects: burstSubjects(running),
    scan: async (subject) => {
      const started = performance.now();
      const res = await pay(`${running.api.url}/scan/${subject.kind}/${subject.address}`);
      const body = (await res.json().catch(() => ({}))) as { flags?: string[] };
      return {
        subject,
        status: res.status,
        receipt: res.headers.get('payment-response') !== null,
        flags: body.flags ?? [],
        ms: performance.now() - started,
      };
    },
    rateLimited: () => running.rpc.rateLimited(),
    close: async () => {
      await running.close();
      await payerRpc?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
