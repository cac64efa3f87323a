/**
 * Mixed traffic from `connections` concurrent clients for a fixed time: each request takes the
 * next kind of a fixed cycle (so the mix holds whatever each kind costs), and each paid request
 * takes a payment of its own from a pool built beforehand: no payment is presented twice
 * during the run. Every answer is recorded: kind, status, latency, and for paid calls what an
 * audit needs (the payment, the settlement named in PAYMENT-RESPONSE, the body, Retry-After).
 */
import { randomBytes } from 'node:crypto';
import { decodePaymentResponseHeader } from '@x402/core/http';
import bs58 from 'bs58';
import type { PooledPayment } from '../../test/helpers/payment-pool.js';

export const KINDS = ['health', 'openapi', 'llms', 'offer', 'paid-cached', 'paid-fresh'] as const;
export type Kind = (typeof KINDS)[number];
export type PaidKind = 'paid-cached' | 'paid-fresh';

export const isPaid = (kind: Kind): kind is PaidKind => kind === 'paid-cached' || kind === 'paid-fresh';

/** Requests of each kind per cycle: a third discovery, a third offers, a third paid. */
export const DEFAULT_MIX: Readonly<Record<Kind, number>> = {
  health: 1,
  openapi: 1,
  llms: 1,
  offer: 3,
  'paid-cached': 2,
  'paid-fresh': 1,
};

const DISCOVERY_PATHS: Partial<Record<Kind, string>> = {
  health: '/health',
  openapi: '/openapi.json',
  llms: '/llms.txt',
};

/** Subjects the offers are asked for: few enough that the service keeps their offers. */
const OFFER_SUBJECTS = Array.from({ length: 64 }, () => `/scan/wallet/${bs58.encode(randomBytes(32))}`);

export interface Sample {
  readonly kind: Kind;
  /** 0: no HTTP answer (reset, timeout). */
  readonly status: number;
  readonly ms: number;
  /** When this run's clock started it, in ms (for shedding over time). */
  readonly at: number;
  readonly payment?: PooledPayment;
  /** The settlement transaction the PAYMENT-RESPONSE header names. */
  readonly settlement?: string;
  readonly retryAfter?: string | null;
  /** The body of a paid 200, to compare with its replay. */
  readonly body?: string;
  readonly error?: string;
}

export interface TrafficOptions {
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
  readonly mix?: Readonly<Record<Kind, number>>;
  /** Payments by kind, each used at most once (taken from the end). */
  readonly pools: Record<PaidKind, PooledPayment[]>;
  /** Per request; a paid call that has to scan and settle needs more than a cheap one. */
  readonly timeoutMs?: number;
  /**
   * After a 503 the client waits its Retry-After (at most 2 s), as a polite agent does, before
   * its next request (with another payment: a refused one is presented again by the audit).
   */
  readonly honourRetryAfter?: boolean;
}

export interface Traffic {
  readonly samples: Sample[];
  /** Paid requests sent as offers instead, their pool being empty. */
  readonly poolExhausted: Record<PaidKind, number>;
  readonly seconds: number;
}

/** The kinds in an order that spreads each kind evenly over the cycle. */
export function cycleOf(mix: Readonly<Record<Kind, number>>): Kind[] {
  const total = KINDS.reduce((n, k) => n + mix[k], 0);
  const slots: { kind: Kind; at: number }[] = [];
  for (const kind of KINDS)
    for (let i = 0; i < mix[kind]; i++) slots.push({ kind, at: (i + 0.5) / mix[kind] });
  const cycle = slots.sort((a, b) => a.at - b.at).map((s) => s.kind);
  if (cycle.length !== total || total === 0) throw new Error('the traffic mix is empty');
  return cycle;
}

async function send(url: string, kind: Kind, payment: PooledPayment | undefined, timeoutMs: number) {
  const path = payment?.path ?? DISCOVERY_PATHS[kind] ?? OFFER_SUBJECTS[randomBytes(1)[0]! & 63]!;
  const headers: Record<string, string> = payment ? { 'PAYMENT-SIGNATURE': payment.header } : {};
  const res = await fetch(url + path, { headers, signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  // A server error's body says why; the report lists the first few (a shed call's 503 is expected).
  const shed = res.status === 503 && res.headers.get('retry-after') !== null;
  const failure = res.status >= 500 && !shed ? { error: `${res.status} ${path}: ${body.slice(0, 300)}` } : {};
  if (!payment) return { status: res.status, ...failure };
  const receipt = res.headers.get('payment-response');
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    ...failure,
    ...(res.status === 200 ? { body } : {}),
    ...(receipt ? { settlement: decodePaymentResponseHeader(receipt).transaction } : {}),
  };
}

/** Retry-After in seconds (or 1 s when absent or unreadable), at most 2 s. */
function pause(retryAfter: string | null): Promise<void> {
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 2) * 1000 : 1000;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function driveTraffic(o: TrafficOptions): Promise<Traffic> {
  const cycle = cycleOf(o.mix ?? DEFAULT_MIX);
  const samples: Sample[] = [];
  const poolExhausted = { 'paid-cached': 0, 'paid-fresh': 0 };
  const started = performance.now();
  const deadline = started + o.seconds * 1000;
  let next = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      let kind = cycle[next++ % cycle.length]!;
      let payment: PooledPayment | undefined;
      if (isPaid(kind)) {
        payment = o.pools[kind].pop();
        if (payment === undefined) {
          poolExhausted[kind]++;
          kind = 'offer';
        }
      }
      const at = performance.now();
      try {
        const answer = await send(o.url, kind, payment, o.timeoutMs ?? 30_000);
        samples.push({
          kind,
          ms: performance.now() - at,
          at: at - started,
          ...answer,
          ...(payment && { payment }),
        });
        if (o.honourRetryAfter && answer.status === 503)
          await pause('retryAfter' in answer ? answer.retryAfter : null);
      } catch (e) {
        const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        samples.push({
          kind,
          status: 0,
          ms: performance.now() - at,
          at: at - started,
          error,
          ...(payment && { payment }),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, client));
  return { samples, poolExhausted, seconds: (performance.now() - started) / 1000 };
}
