/**
 * What a load run runs against: the sandbox chain, its RPC and two local facilitators in this
 * process, funded payers, and the API in a process of its own (`npm start` in mainnet mode,
 * production defaults, info logs), so the load never shares the API's event loop and the
 * API's memory is its own.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyPairSigner } from '@solana/kit';
import { type ApiProcess, startApiProcess } from '../../test/helpers/api-process.js';
import { type FaultProxy, startFaultProxy } from '../../test/helpers/fault-proxy.js';
import { type PaidSandbox, startPaidSandbox } from '../../test/helpers/paid-sandbox.js';

/** Every API process names resources alike, whatever port it gets. */
export const RESOURCE_BASE = 'https://scan.test';
/** /scan/wallet: 0.02 USDC. */
export const WALLET_PRICE = 20_000n;

export interface LoadWorld {
  readonly sandbox: PaidSandbox;
  readonly api: ApiProcess;
  readonly payers: readonly KeyPairSigner[];
  /** The API process's resident set size, in bytes. */
  rss(): number;
  /** The API's V8 heap in use, in bytes, from its own metrics (METRICS_PORT). */
  heapUsed(): Promise<number>;
  close(): Promise<void>;
}

export interface WorldOptions {
  /** Funded payers the payments are spread over. */
  readonly payers: number;
  /** Wallet scans each payer can pay for. */
  readonly callsPerPayer: number;
  /** More environment for the API (limits, timeouts). */
  readonly apiEnv?: Readonly<Record<string, string>>;
  /** Latency added to every facilitator call the API makes (slow paid calls, to saturate). */
  readonly facilitatorLatencyMs?: number;
}

export function processRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function scrapeHeapUsed(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return Number(/^risk_scan_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? Number.NaN);
}

async function facilitatorUrls(sandbox: PaidSandbox, latencyMs: number, proxies: FaultProxy[]) {
  if (latencyMs <= 0) return sandbox.facilitators.map((f) => f.url);
  for (const f of sandbox.facilitators) {
    proxies.push(
      await startFaultProxy(f.url, ({ method }) =>
        method === 'GET /supported' ? { kind: 'pass' } : { kind: 'latency', ms: latencyMs },
      ),
    );
  }
  return proxies.map((p) => p.url);
}

export async function startLoadWorld(options: WorldOptions): Promise<LoadWorld> {
  const sandbox = await startPaidSandbox();
  const stateDir = await mkdtemp(join(tmpdir(), 'load-state-'));
  const proxies: FaultProxy[] = [];
  let api: ApiProcess | undefined;
  try {
    const payers = [];
    for (let i = 0; i < options.payers; i++)
      payers.push(await sandbox.newPayer(WALLET_PRICE * BigInt(options.callsPerPayer)));
    const metricsPort = await freePort();
    api = await startApiProcess({
      METRICS_PORT: String(metricsPort),
      RISK_SCAN_MODE: 'mainnet',
      PAY_TO: sandbox.payTo,
      PUBLIC_BASE_URL: RESOURCE_BASE,
      SOLANA_RPC_URL: sandbox.rpcServer.url,
      FACILITATOR_URLS: (await facilitatorUrls(sandbox, options.facilitatorLatencyMs ?? 0, proxies)).join(
        ',',
      ),
      STATE_DIR: stateDir,
      ...options.apiEnv,
    });
    const running = api;
    return {
      sandbox,
      api: running,
      payers,
      rss: () => processRss(running.child.pid!),
      heapUsed: () => scrapeHeapUsed(`http://127.0.0.1:${metricsPort}`),
      close: async () => {
        await running.stop();
        await Promise.all(proxies.map((p) => p.close()));
        await sandbox.close();
        await rm(stateDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await api?.kill();
    await Promise.all(proxies.map((p) => p.close()));
    await sandbox.close();
    await rm(stateDir, { recursive: true, force: true });
    throw e;
  }
}
