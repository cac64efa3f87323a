/** What the operator's metrics read at each scrape: circuits, the event loop, the paid calls. */
import type { Metrics } from '../server/metrics.js';
import { endpointHost } from '../server/upstream-metrics.js';
import type { DoorParts } from './door.js';
import type { Infrastructure } from './infrastructure.js';

/** Has the metrics read circuit states, the event-loop delay and the paid calls at each scrape. */
export function observeService(metrics: Metrics, infra: Infrastructure, parts: DoorParts): void {
  metrics.watchCircuits(() => [
    ...infra.rpcCircuits().map((c, i) => ({
      kind: 'rpc' as const,
      host: endpointHost(c.url),
      position: i + 1,
      state: c.state,
    })),
    ...infra.facilitators.status().map((f, i) => ({
      kind: 'facilitator' as const,
      host: endpointHost(f.url),
      position: i + 1,
      state: f.healthy ? ('closed' as const) : ('open' as const),
    })),
  ]);
  const { shedder, gate } = parts;
  metrics.watchEventLoopDelay(() => shedder.delayMs() / 1000);
  metrics.watchPaidCalls(() => ({ inflight: shedder.inflight(), unrecorded: gate?.unrecorded() ?? 0 }));
}
