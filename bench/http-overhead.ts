/**
 * HTTP overhead of the service on its cheapest paths — the 402 offer and /openapi.json —
 * as a ratio to a bare node:http server answering the very same bytes, measured in the same
 * run with interleaved rounds (these machines are noisy; ratios are what we compare).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFacilitatorStub } from '../test/helpers/facilitator-stub.js';
import { autocannon, type LoadResult, startChildServer } from './lib/processes.js';
import { median, printTable } from './lib/report.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const FEE_PAYER = '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4';

const CASES = [
  { name: '402 offer', path: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', status: 402 },
  { name: '/openapi.json', path: '/openapi.json', status: 200 },
] as const;

const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function record(base: string, path: string) {
  const res = await fetch(base + path);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!SKIPPED_HEADERS.has(key)) headers[key] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

export interface HttpOverheadRow {
  readonly case: string;
  readonly raw: LoadResult;
  readonly service: LoadResult;
  readonly throughputRatio: number;
  readonly p99Ratio: number;
}

export async function runHttpOverhead(options: {
  seconds: number;
  rounds: number;
}): Promise<HttpOverheadRow[]> {
  const stub = await startFacilitatorStub(FEE_PAYER);
  const service = await startChildServer(here('./servers/service.ts'), {
    PAY_TO,
    FACILITATOR_URLS: stub.url,
    // Production logs one line per request; BENCH_LOG_LEVEL=silent shows what logging costs.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const table: Record<string, unknown> = {};
  for (const c of CASES) {
    const recorded = await record(service.url, c.path);
    if (recorded.status !== c.status) throw new Error(`${c.path} answered ${recorded.status}`);
    table[c.path] = recorded;
  }
  writeFileSync(join(dir, 'responses.json'), JSON.stringify(table));
  const raw = await startChildServer(here('./servers/raw.ts'), { RESPONSES: join(dir, 'responses.json') });

  const rows: HttpOverheadRow[] = [];
  try {
    for (const c of CASES) {
      const rawRuns: LoadResult[] = [];
      const svcRuns: LoadResult[] = [];
      // Warm both servers up (JIT, connection pools) before measuring.
      await autocannon(raw.url + c.path, 2);
      await autocannon(service.url + c.path, 2);
      for (let round = 0; round < options.rounds; round++) {
        rawRuns.push(await autocannon(raw.url + c.path, options.seconds));
        svcRuns.push(await autocannon(service.url + c.path, options.seconds));
      }
      const ratios = rawRuns.map((r, i) => svcRuns[i]!.requestsPerSecond / r.requestsPerSecond);
      const p99Ratios = rawRuns.map((r, i) => svcRuns[i]!.p99Ms / Math.max(r.p99Ms, 1));
      rows.push({
        case: c.name,
        raw: pickMedian(rawRuns),
        service: pickMedian(svcRuns),
        throughputRatio: median(ratios),
        p99Ratio: median(p99Ratios),
      });
    }
  } finally {
    await raw.stop();
    await service.stop();
    await stub.close();
  }
  printTable(
    'HTTP overhead: service vs bare node:http answering the same bytes (autocannon -c 50, separate processes)',
    [
      'case',
      'raw req/s',
      'service req/s',
      'ratio (target ≥ 0.8)',
      'raw p99 ms',
      'service p99 ms',
      'p99 ratio',
    ],
    rows.map((r) => [
      r.case,
      r.raw.requestsPerSecond.toFixed(0),
      r.service.requestsPerSecond.toFixed(0),
      r.throughputRatio.toFixed(2),
      String(r.raw.p99Ms),
      String(r.service.p99Ms),
      r.p99Ratio.toFixed(2),
    ]),
  );
  return rows;
}

function pickMedian(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}
