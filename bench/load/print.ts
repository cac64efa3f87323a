/** A load run's report as Markdown tables, in the benchmarks' style. */
import { printTable } from '../lib/report.js';
import type { LoadReport } from './run-load.js';
import { KINDS } from './traffic.js';

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

export function printLoadReport(title: string, r: LoadReport): void {
  printTable(
    `${title}: ${r.seconds.toFixed(0)} s, ${r.connections} connections, ${r.requests} requests, ${r.requestsPerSecond.toFixed(0)} req/s`,
    ['kind', 'requests', 'statuses', 'p50 ms', 'p99 ms'],
    KINDS.map((k) => {
      const kr = r.byKind[k];
      const statuses = Object.entries(kr.statuses)
        .map(([status, n]) => `${status === '0' ? 'no answer' : status}: ${n}`)
        .join(', ');
      return [k, String(kr.requests), statuses, kr.p50Ms.toFixed(1), kr.p99Ms.toFixed(1)];
    }),
  );
  const a = r.audit;
  printTable(
    `${title}: payments and memory`,
    ['check', 'value'],
    [
      ['5xx (all) / other than a paid 503 with Retry-After', `${r.fiveXx} / ${r.unexpected5xx}`],
      ['requests without an answer', String(r.noAnswer)],
      ['paid requests (one payment each)', String(a.paidRequests)],
      ['settled on chain', String(a.settled)],
      ['  with their 200 in the run', String(a.answeredInRun)],
      ['  recovered by replay (stored 200)', String(a.recoveredByReplay)],
      ['  lost', String(a.lost)],
      ['200 without a settlement of its own', String(a.unsettled200)],
      ['replay differing from the 200', String(a.replayMismatches)],
      ['settlements no request presented', String(a.unknownSettlements)],
      ["payTo's receipts = settled × price", a.receiptsMatch ? 'yes' : 'NO'],
      ['refused (503)', String(a.refused)],
      ['  without Retry-After or charged', String(a.badRefusals)],
      ['  presented again / bought one result', `${a.refusedPresentedAgain} / ${a.refusedThenBought}`],
      ['payment pool exhausted (sent as offers)', JSON.stringify(r.poolExhausted)],
      [
        'API RSS start → end (peak), MiB',
        `${mb(r.rss.startBytes)} → ${mb(r.rss.endBytes)} (${mb(r.rss.peakBytes)})`,
      ],
      ['API RSS growth, MiB', mb(r.rss.endBytes - r.rss.startBytes)],
      ['API V8 heap used start → end, MiB', `${mb(r.heapUsed.startBytes)} → ${mb(r.heapUsed.endBytes)}`],
    ],
  );
  if (r.errors.length > 0) console.log(`\nclient errors: ${r.errors.join('; ')}`);
}
