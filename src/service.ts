/**
 * Builds the whole service from a Config: facilitator directory, health checks, app.
 * main.ts and the end-to-end tests both start the service through here.
 */
import type { Hono } from 'hono';
import type { Config } from './config.js';
import { cachedCheck, type HealthCheck } from './health.js';
import { createDocsRoutes } from './server/docs/routes.js';
import { buildApp } from './server/app.js';
import type { AppEnv } from './server/context.js';


import { DISCOVERY_PATHS, SERVICE_NAME } from './server/discovery/context.js';
import { listen, type RunningServer } from './server/listen.js';
import { createLogger, type Logger } from './server/logger.js';
import { OfferBook } from './server/offers.js';
import type { PaymentGate } from './server/paid-routes.js';
import { rpcHealthCheck } from './solana/rpc-health.js';
import { SERVICE_VERSION } from './version.js';
import { FacilitatorDirectory } from './x402/facilitators.js';

export interface ServiceOptions {
  readonly log?: Logger;
  /** For fault-injection tests: the fetch used to reach facilitators. */
  readonly facilitatorFetch?: typeof fetch;
  readonly paymentGate?: PaymentGate;
  /** Replaces the default dependency checks (RPC). */
  readonly healthChecks?: Readonly<Record<string, HealthCheck>>;
}

export interface Service {
  readonly app: Hono<AppEnv>;
  readonly facilitators: FacilitatorDirectory;
  readonly log: Logger;
  /** Learns the facilitators' fee payers (first round awaited) and keeps them fresh. */
  start(): Promise<void>;
  listen(): Promise<RunningServer>;
  stop(): void;
}

export function createService(config: Config, options: ServiceOptions = {}): Service {
  if (config.payTo === null) throw new Error('createService needs a payTo address');
  const log = options.log ?? createLogger(config.logLevel);
  const facilitators = new FacilitatorDirectory({
    urls: config.facilitatorUrls,
    timeoutMs: config.facilitatorTimeoutMs,
    refreshMs: config.supportedRefreshMs,
    ...(options.facilitatorFetch ? { fetch: options.facilitatorFetch } : {}),
    onError: (url, message) => log.warn({ facilitator: url, reason: message }, 'facilitator unavailable'),
  });
  const checks = options.healthChecks ?? {
    rpc: cachedCheck(rpcHealthCheck(config.rpcUrls[0]!, Math.min(config.rpcTimeoutMs, 3_000)), 5_000),
  };
  const app = buildApp({
    log,
    paid: {
      offers: new OfferBook({
        payTo: config.payTo,
        maxTimeoutSeconds: config.maxTimeoutSeconds,
        facilitators,
      }),
      publicBaseUrl: config.publicBaseUrl,
      ...(options.paymentGate ? { paymentGate: options.paymentGate } : {}),
    },
    discovery: {
      mode: config.mode,
      payTo: config.payTo,
      publicBaseUrl: config.publicBaseUrl,
      serviceVersion: SERVICE_VERSION,
      facilitators,
      health: { mode: config.mode, version: SERVICE_VERSION, startedAt: Date.now(), facilitators, checks },
    },
    extraRoutes: [
      createDocsRoutes({ openapiPath: DISCOVERY_PATHS.openapi, title: `${SERVICE_NAME} — API reference` }),
    ],
  });
  return {
    app,
    facilitators,
    log,
    start: () => facilitators.start(),
    listen: () => listen(app, { port: config.port, host: config.host }),
    stop: () => facilitators.stop(),
  };
}
