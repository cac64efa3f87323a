/**
 * Scan latency per endpoint against the seeded sandbox with 50 ms added to every RPC call,
 * reported as the number of sequential round trips it amounts to (p50 ÷ 50 ms). Targets:
 * token and pump.fun ≤ 2.2 × 50 ms + 20 ms at p50 (two round trips and local work).
 */
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from '@solana/kit';
import type { EndpointId } from '../src/catalog.js';
import { startSandboxRpc } from '../src/sandbox/rpc/server.js';
import { seededChain } from '../src/sandbox/scenarios/index.js';
import { SCANNERS } from '../src/scans/registry.js';
import { countingTransport, delayedTransport } from '../test/helpers/rpc-transports.js';
import { median, percentile, printTable } from './lib/report.js';

const RPC_LATENCY_MS = 50;

/** One representative seeded subject per endpoint, by manifest name. */
const SUBJECTS: Record<EndpointId, string> = {
  pumpfun: 'pumpfun:curve-active',
  token: 'token:t22-transfer-fee',
  wallet: 'wallet:old-active',
  tx: 'tx:high-priority-fee',
  program: 'program:single-key',
  simulate: 'sim:usdc-transfer',
};

export async function runScanLatency(options: { runs: number }) {
  const { chain, manifest } = await seededChain({ autoAdvance: false });
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  const rows = [];
  try {
    for (const [endpoint, name] of Object.entries(SUBJECTS) as [EndpointId, string][]) {
      const entry = [...manifest.subjects, ...manifest.simulations].find((s) => s.name === name) as
        | { address?: string; signature?: string; transaction?: string }
        | undefined;
      // A simulation's subject is its base64 wire transaction (the body POST /simulate/tx takes).
      const subject = entry?.transaction ?? entry?.address ?? entry?.signature;
      if (subject === undefined) throw new Error(`the manifest has no ${name}`);
      const counter = countingTransport(
        delayedTransport(createDefaultRpcTransport({ url: server.url }), RPC_LATENCY_MS),
      );
      const rpc = createSolanaRpcFromTransport(counter.transport);
      const times: number[] = [];
      let roundTrips = 0;
      for (let i = 0; i < options.runs + 1; i++) {
        counter.reset();
        const started = performance.now();
        await SCANNERS[endpoint](subject, { rpc, now: Date.now });
        if (i > 0) times.push(performance.now() - started);
        roundTrips = counter.roundTrips();
      }
      const p50 = median(times);
      rows.push({
        endpoint,
        subject: name,
        p50,
        p95: percentile(times, 95),
        roundTrips,
        effective: p50 / RPC_LATENCY_MS,
      });
    }
  } finally {
    chain.stop();
    await server.close();
  }
  printTable(
    `Scan latency with ${RPC_LATENCY_MS} ms per RPC call (seeded sandbox; target for token/pump.fun: p50 ≤ ${2.2 * RPC_LATENCY_MS + 20} ms)`,
    ['endpoint', 'subject', 'p50 ms', 'p95 ms', 'sequential round trips (counted)', 'p50 ÷ 50 ms'],
    rows.map((r) => [
      r.endpoint,
      r.subject,
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      String(r.roundTrips),
      r.effective.toFixed(2),
    ]),
  );
  return rows;
}
