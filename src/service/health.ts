/**
 * What a service's /health asks, in this order: the RPC (or the checks a caller gave), what
 * the RPC can do, the payment state, and the watches with what this instance follows.
 */
import type { Config } from '../config.js';
import { errorMessage } from '../errors.js';
import { cachedCheck, type HealthCheck } from '../health.js';
import { rpcHealthCheck } from '../solana/rpc-health.js';
import type { ServiceState } from '../state/open.js';
import type { WatchFeature } from '../watch/feature.js';
import type { DoorParts } from './door.js';
import type { Infrastructure } from './infrastructure.js';
import type { ServiceOptions } from './mode.js';

export function healthChecks(
  config: Config,
  options: ServiceOptions,
  infra: Infrastructure,
  parts: DoorParts,
): Record<string, HealthCheck> {
  const { capabilities, state } = infra;
  const { watchFeature } = parts;
  return {
    ...(options.healthChecks ?? {
      rpc: cachedCheck(rpcHealthCheck(config.rpcUrls[0]!, Math.min(config.rpcTimeoutMs, 3_000)), 5_000),
    }),
    ...(capabilities ? { rpc_capabilities: capabilities.check } : {}),
    ...(state ? { payment_state: stateCheck(state) } : {}),
    ...(watchFeature ? { watches: watchesCheck(watchFeature, parts.watchesWhere) } : {}),
  };
}

function stateCheck(state: ServiceState): HealthCheck {
  return cachedCheck(async () => {
    await state.payments.check();
    return { status: 'ok', detail: state.where };
  }, 2_000);
}

/**
 * Where the watches are kept and whether that store answers (cached as the payment state's
 * check is), with what this instance follows now: live, as the subscriptions come and go.
 */
function watchesCheck(feature: WatchFeature, where: string): HealthCheck {
  const store = cachedCheck(async () => {
    try {
      await feature.state.check();
    } catch (e) {
      throw new Error(`watches in ${where} unavailable: ${errorMessage(e)}`);
    }
    return { status: 'ok', detail: where };
  }, 2_000);
  return async () => ({ ...(await store()), following: feature.following() });
}
