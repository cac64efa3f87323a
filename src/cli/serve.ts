/**
 * Runs the service until SIGTERM/SIGINT: on mainnet with the configured RPC and facilitators,
 * or as the offline sandbox (simulated chain, facilitators and funded payer).
 */
import type { Config } from '../config.js';
import type { AccountsToLoad } from '../sandbox/loaded-accounts.js';
import { sandboxBanner, startSandbox } from '../sandbox/start.js';
import { SCANNERS } from '../scans/registry.js';
import { createLogger, flushLogs, type Logger } from '../server/logger.js';
import { createService, type ServiceOptions, selling, shutdownBoundMs } from '../service/index.js';
import { degradedFamilies } from '../solana/rpc-capabilities.js';

export interface Running {
  /** Where the API listens. */
  readonly url: string;
  readonly log: Logger;
  /** Longest a clean shutdown may take (paid calls in flight settle and record); then the exit is forced. */
  readonly shutdownMs: number;
  close(): Promise<void>;
}

async function startMainnet(config: Config, log: Logger, options: ServiceOptions): Promise<Running> {
  const service = await createService(config, { log, ...options });
  // Ask the facilitators for their fee payers before listening (each call is bounded by
  // FACILITATOR_TIMEOUT_MS), so the very first 402 already names one a client can pay through.
  await service.start();
  const api = await service.listen().catch(async (e: unknown) => {
    await service.stop(); // the facilitator refresh would otherwise go on for nothing
    throw e;
  });
  log.info({ url: api.url, mode: config.mode, payTo: config.payTo }, 'Solana Risk Scan is listening');
  const capabilities = service.rpcCapabilities();
  const degraded = capabilities === null ? [] : degradedFamilies(capabilities);
  if (degraded.length > 0) {
    log.warn(
      { degraded: Object.fromEntries(degraded.map((d) => [d.family, d.reason])) },
      `these checks will be degraded with this RPC: ${degraded.map((d) => d.affects).join('; ')}`,
    );
  }
  return {
    url: api.url,
    log,
    shutdownMs: shutdownBoundMs(config),
    close: async () => {
      // Requests in flight finish first: they still need the payment store.
      await api.close();
      await service.stop();
    },
  };
}

async function startSandboxMode(
  config: Config,
  log: Logger,
  options: ServiceOptions,
  accounts: AccountsToLoad,
): Promise<Running> {
  const started = performance.now();
  const sandbox = await startSandbox({ config, log, serviceOptions: options, accounts });
  console.log(sandboxBanner(sandbox));
  log.info(
    { url: sandbox.api.url, mode: 'sandbox', ready_ms: Math.round(performance.now() - started) },
    'sandbox ready',
  );
  return { url: sandbox.api.url, log, shutdownMs: shutdownBoundMs(config), close: () => sandbox.close() };
}

/** Starts the service; `accounts` are loaded into the sandbox's chain (sandbox mode only). */
export async function serve(
  config: Config,
  overrides: Partial<ServiceOptions> = {},
  accounts: AccountsToLoad = { files: [], dirs: [] },
): Promise<Running> {
  const log = createLogger(config.logLevel);
  const options: ServiceOptions = { mode: selling(SCANNERS), ...overrides };
  return config.mode === 'sandbox'
    ? startSandboxMode(config, log, options, accounts)
    : startMainnet(config, log, options);
}

/**
 * Stops cleanly on SIGTERM/SIGINT: no new connections, new paid calls refused with 503, every
 * paid call in flight finishes its settle and record, records the store refused are flushed.
 * A paid call's own deadlines bound all of it; `shutdownMs` later the exit is forced (code 1).
 */
export function stopOnSignals(running: Running): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      running.log.warn({ after_ms: running.shutdownMs }, 'requests still running; exiting');
      flushLogs(running.log);
      process.exit(1);
    }, running.shutdownMs);
    force.unref();
    void running.close().then(() => {
      flushLogs(running.log);
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
