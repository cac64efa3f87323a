/**
 * Builds the whole service from a Config and what it is asked to be (its mode): the
 * infrastructure it stands on, the paid door, the HTTP app. main.ts, the sandbox command and
 * the end-to-end tests all start the service through here.
 */
import type { Config } from '../config.js';
import type { FramedApp } from '../server/frame.js';
import type { RunningServer } from '../server/listen.js';
import type { Logger } from '../server/logger.js';
import type { Metrics } from '../server/metrics.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { Capabilities } from '../solana/rpc-capabilities.js';
import type { WatchState } from '../watch/model.js';
import type { FacilitatorDirectory } from '../x402/facilitators.js';
import { assembleApp } from './app.js';
import { assembleDoor } from './door.js';
import { healthChecks } from './health.js';
import { openInfrastructure } from './infrastructure.js';
import type { ServiceOptions } from './mode.js';
import { observeService } from './observe.js';
import { listenService, RECORD_FLUSH_MS, startService, stopService } from './running.js';

export {
  OFFERS_ONLY,
  type Scanners,
  type Selling,
  type ServiceMode,
  type ServiceOptions,
  selling,
} from './mode.js';

export interface Service {
  readonly app: FramedApp;
  readonly facilitators: FacilitatorDirectory;
  readonly log: Logger;
  readonly rpc: SolanaRpc;
  /** The watches this service keeps; null where it takes no payments. */
  readonly watches: WatchState | null;
  /** The service's metrics registry when METRICS_PORT is set; null otherwise. */
  readonly metrics: Metrics | null;
  /** Learns the facilitators' fee payers (first round awaited) and keeps them fresh; probes the RPC's capabilities. */
  start(): Promise<void>;
  /** What the RPC can do for each check family, once start() has probed it; null when not probed. */
  rpcCapabilities(): Capabilities | null;
  listen(): Promise<RunningServer>;
  /**
   * Stops background work, writes the payment records still waiting for the store (trying for
   * RECORD_FLUSH_MS at most) and closes the stores; call after the server has drained.
   */
  stop(): Promise<void>;
}

/**
 * How long a shutdown may take at most: every paid call in flight runs to its end (its own
 * deadlines bound it), then the records are flushed. Past it a signal handler may force the exit.
 */
export function shutdownBoundMs(config: Config): number {
  return config.longestPaidCallMs + RECORD_FLUSH_MS + 5_000;
}

export async function createService(config: Config, options: ServiceOptions): Promise<Service> {
  if (config.payTo === null) throw new Error('createService needs a payTo address');
  const infra = await openInfrastructure(config, options);
  const parts = assembleDoor(config, options, infra);
  if (infra.metrics !== null) observeService(infra.metrics, infra, parts);
  const app = assembleApp(config, infra, parts, healthChecks(config, options, infra, parts));
  return {
    app,
    facilitators: infra.facilitators,
    log: infra.log,
    rpc: infra.rpc,
    watches: parts.watchFeature?.state ?? null,
    metrics: infra.metrics,
    start: () => startService(config, infra, parts),
    rpcCapabilities: () => infra.capabilities?.latest() ?? null,
    listen: () => listenService(config, app, infra, parts),
    stop: () => stopService(infra, parts),
  };
}
