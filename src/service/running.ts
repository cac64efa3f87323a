/**
 * A service's life after assembly: start (the facilitators' fee payers, the RPC's capabilities,
 * the verified-token list, then the watches), listen (the API, and the metrics beside it), and
 * stop (background work, the paid calls' records, the state).
 */
import type { Config } from '../config.js';
import type { FramedApp } from '../server/frame.js';
import { listen, type RunningServer } from '../server/listen.js';
import { serveMetrics } from '../server/metrics.js';
import type { DoorParts } from './door.js';
import type { Infrastructure } from './infrastructure.js';

/** How long a stopping service keeps trying to write payment records the store refused. */
export const RECORD_FLUSH_MS = 10_000;

export async function startService(config: Config, infra: Infrastructure, parts: DoorParts): Promise<void> {
  await Promise.all([
    infra.facilitators.start(),
    infra.capabilities?.refresh(),
    infra.verifiedTokens?.start(config.verifiedTokens.refreshMs),
  ]);
  parts.watchFeature?.start();
}

export async function stopService(infra: Infrastructure, parts: DoorParts): Promise<void> {
  infra.facilitators.stop();
  infra.verifiedTokens?.stop();
  parts.shedder.close();
  await parts.watchFeature?.stop();
  await parts.gate?.close(performance.now() + RECORD_FLUSH_MS);
  await infra.state?.close();
}

/**
 * Listens. Closing refuses new paid calls with 503 at once, and ends once the paid calls in
 * flight have settled and recorded and every connection has had its response.
 */
export async function listenService(
  config: Config,
  app: FramedApp,
  infra: Infrastructure,
  parts: DoorParts,
): Promise<RunningServer> {
  const listening = await listen(app, { port: config.port, host: config.host });
  const running = {
    ...listening,
    close: async () => {
      await Promise.all([listening.close(), parts.shedder.drain()]);
    },
  };
  return withMetricsServer(config, infra, running);
}

async function withMetricsServer(
  config: Config,
  infra: Infrastructure,
  running: RunningServer,
): Promise<RunningServer> {
  const { metrics, log } = infra;
  if (metrics === null || config.metricsPort === null) return running;
  const served = await serveMetrics(metrics, config.host, config.metricsPort).catch(async (e) => {
    await running.close();
    throw e;
  });
  log.info({ metrics: served.url }, 'metrics served');
  return {
    ...running,
    metricsUrl: served.url,
    // Metrics last: an operator can watch the drain until the last paid call has its response.
    close: async () => {
      try {
        await running.close();
      } finally {
        await served.close();
      }
    },
  };
}
