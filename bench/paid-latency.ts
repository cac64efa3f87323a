/**
 * What a paid call adds over the scan alone, against the sandbox chain and its local
 * facilitators, with the scan's RPC slowed to a realistic 50 ms per call — once with the
 * facilitator's verification running alongside the scan (PARALLEL_VERIFY=true) and once
 * before it (false). Caching is off so every call really scans.
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { CacheStore } from '../src/scans/cache-store.js';
import { selling } from '../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../test/helpers/paid-sandbox.js';
import { encodeHeader, offerOf, v2Payment } from '../test/helpers/payments.js';
import { probeScanner, probeScanners } from '../test/helpers/probe-scanner.js';
import { delayedTransport } from '../test/helpers/rpc-transports.js';
import { median, percentile, printTable } from './lib/report.js';

const RPC_LATENCY_MS = 50;
const noCache: CacheStore = { get: async () => undefined, set: async () => undefined };

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function measure(parallel: boolean, calls: number) {
  let sandbox: PaidSandbox | undefined;
  try {
    sandbox = await startPaidSandbox(
      { PARALLEL_VERIFY: String(parallel) },
      { mode: selling(probeScanners(), { cache: noCache }) },
      RPC_LATENCY_MS,
    );
    const s = sandbox;
    const rpc = createSolanaRpcFromTransport(
      delayedTransport(createDefaultRpcTransport({ url: s.rpcServer.url }), RPC_LATENCY_MS),
    );
    const url = `${s.url}/scan/wallet/${s.payer.address}`;
    const scanOnly: number[] = [];
    const paid: number[] = [];
    for (let i = 0; i < calls + 2; i++) {
      const offer = await offerOf(url);
      const header = encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
      const scanMs = await timeIt(() => probeScanner(s.payer.address, { rpc, now: Date.now }));
      const paidMs = await timeIt(async () => {
        const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': header } });
        if (res.status !== 200) throw new Error(`paid call answered ${res.status}: ${await res.text()}`);
      });
      if (i >= 2) {
        scanOnly.push(scanMs);
        paid.push(paidMs);
      }
    }
    return { scanOnly, paid };
  } finally {
    await sandbox?.close();
  }
}

export async function runPaidLatency(options: { calls: number }) {
  const rows = [];
  for (const parallel of [true, false]) {
    const { scanOnly, paid } = await measure(parallel, options.calls);
    rows.push({
      parallelVerify: parallel,
      scanP50: median(scanOnly),
      paidP50: median(paid),
      addedP50: median(paid) - median(scanOnly),
      paidP95: percentile(paid, 95),
    });
  }
  printTable(
    `Paid call vs the scan alone (sandbox facilitator, ${RPC_LATENCY_MS} ms per RPC call, no cache)`,
    ['verification', 'scan alone p50 ms', 'paid call p50 ms', 'added by payment p50 ms', 'paid call p95 ms'],
    rows.map((r) => [
      r.parallelVerify ? 'parallel with scan' : 'before scan',
      r.scanP50.toFixed(1),
      r.paidP50.toFixed(1),
      r.addedP50.toFixed(1),
      r.paidP95.toFixed(1),
    ]),
  );
  return rows;
}
