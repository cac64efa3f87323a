/**
 * After the traffic: what the chain says was paid, against what the clients received. A
 * payment that settled must have had its 200 (naming that very settlement) or get it now on
 * replay (the stored response); a 200 must name a settlement of its own payment; a 503 must
 * carry Retry-After and leave its payment unspent, and that payment must still buy one result.
 */
import type { Address } from '@solana/kit';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import { type PooledPayment, settledOnChain } from '../../test/helpers/payment-pool.js';
import { isPaid, type Sample } from './traffic.js';

export interface PaymentAudit {
  /** Paid requests sent (each with its own payment). */
  readonly paidRequests: number;
  /** Payments that settled on chain during the run. */
  readonly settled: number;
  /** Settled payments whose 200 reached the client during the run. */
  readonly answeredInRun: number;
  /** Settled payments whose client got no 200 in the run but whose replay returned the stored 200. */
  readonly recoveredByReplay: number;
  /** Settled payments with no 200, in the run or on replay. Must be 0. */
  readonly lost: number;
  /** 200s that name no settlement of their own payment. Must be 0. */
  readonly unsettled200: number;
  /** Settled payments whose replay did not return the same body as their 200. Must be 0. */
  readonly replayMismatches: number;
  /** Settlements on chain that no request of the run presented. Must be 0. */
  readonly unknownSettlements: number;
  /** 503s on paid calls. */
  readonly refused: number;
  /** 503s without Retry-After, or whose payment was spent anyway. Must be 0. */
  readonly badRefusals: number;
  /** Refused payments presented again afterwards (all, or an even sample of them). */
  readonly refusedPresentedAgain: number;
  /** Of those, the ones that bought their result (200, and now settled). */
  readonly refusedThenBought: number;
  /** payTo's USDC receipts equal settled payments × price. */
  readonly receiptsMatch: boolean;
}

export interface AuditOptions {
  readonly chain: SandboxChain;
  readonly payTo: Address;
  readonly url: string;
  readonly samples: readonly Sample[];
  readonly price: bigint;
  /** payTo's USDC before and after the run (before any replay). */
  readonly received: bigint;
  /** Payments settled before the run (warm-up): not the run's. */
  readonly settledBefore: ReadonlySet<string>;
  /** At most this many refused payments are presented again (the saturation run); each must buy one result. */
  readonly buyRefused: number;
  /** Replays in flight at once: 1 against a server that sheds. */
  readonly replayConcurrency: number;
}

async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

/** Presents `payment` again, one at a time, waiting out a 503's Retry-After (a shedding server). */
async function present(url: string, payment: PooledPayment): Promise<{ status: number; body: string }> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url + payment.path, { headers: { 'PAYMENT-SIGNATURE': payment.header } });
    const body = await res.text();
    if (res.status !== 503 || attempt >= 20) return { status: res.status, body };
    const wait = Math.min(Number(res.headers.get('retry-after') ?? 1) || 1, 5);
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
}

/** Settled payments: each delivered in the run (and replayed alike) or recovered by replay. */
async function checkSettled(o: AuditOptions, settled: Map<string, string>, byKey: Map<string, Sample>) {
  const counts = { answeredInRun: 0, recoveredByReplay: 0, lost: 0, replayMismatches: 0 };
  const entries = [...settled].filter(([key]) => byKey.has(key));
  await forEachLimit(entries, o.replayConcurrency, async ([key, signature]) => {
    const sample = byKey.get(key)!;
    const replay = await present(o.url, sample.payment!);
    const delivered = sample.status === 200 && sample.settlement === signature;
    if (delivered) counts.answeredInRun++;
    if (delivered && (replay.status !== 200 || replay.body !== sample.body)) counts.replayMismatches++;
    if (!delivered && replay.status === 200) counts.recoveredByReplay++;
    if (!delivered && replay.status !== 200) counts.lost++;
  });
  return counts;
}

/** Refused payments presented again (an even sample of at most `o.buyRefused`): each must now buy its result. */
async function buyRefused(o: AuditOptions, all: readonly Sample[]) {
  const n = Math.min(Math.max(o.buyRefused, 0), all.length);
  const refusals = Array.from({ length: n }, (_, j) => all[Math.floor((j * all.length) / n)]!);
  const answered = new Map<string, number>();
  await forEachLimit(refusals, o.replayConcurrency, async (s) => {
    answered.set(s.payment!.key, (await present(o.url, s.payment!)).status);
  });
  const settled = await settledOnChain(o.chain, o.payTo);
  const bought = refusals.filter((s) => answered.get(s.payment!.key) === 200 && settled.has(s.payment!.key));
  return { refusedPresentedAgain: refusals.length, refusedThenBought: bought.length };
}

export async function auditPayments(o: AuditOptions): Promise<PaymentAudit> {
  const settled = await settledOnChain(o.chain, o.payTo);
  for (const key of o.settledBefore) settled.delete(key);
  const paid = o.samples.filter((s) => isPaid(s.kind) && s.payment !== undefined);
  const byKey = new Map(paid.map((s) => [s.payment!.key, s]));
  const unsettled200 = paid.filter(
    (s) => s.status === 200 && settled.get(s.payment!.key) !== s.settlement,
  ).length;
  const refusals = paid.filter((s) => s.status === 503);
  const badRefusals = refusals.filter((s) => !s.retryAfter || settled.has(s.payment!.key)).length;
  const counts = await checkSettled(o, settled, byKey);
  return {
    paidRequests: paid.length,
    settled: settled.size,
    ...counts,
    unsettled200,
    unknownSettlements: [...settled.keys()].filter((k) => !byKey.has(k)).length,
    refused: refusals.length,
    badRefusals,
    ...(await buyRefused(o, refusals)),
    receiptsMatch: o.received === BigInt(settled.size) * o.price,
  };
}
