/**
 * The HTTP app of a service: the paid door's routes, POST /mcp, the watch routes where watches
 * are kept, discovery documents, /health and the /docs reference.
 */
import type { Config } from '../config.js';
import type { HealthCheck } from '../health.js';
import { DISCOVERY_PATHS, SERVICE_NAME } from '../identity.js';
import { createMcpHandler } from '../mcp/http-route.js';
import { mcpDocsSection, mcpFacts } from '../mcp/tools.js';
import { buildApp } from '../server/app.js';
import type { DiscoveryDeps } from '../server/discovery/routes.js';
import { docsIntro } from '../server/docs/intro.js';
import { createDocsRoutes } from '../server/docs/routes.js';
import type { FramedApp } from '../server/frame.js';
import { jwks } from '../signing/signature.js';
import { SERVICE_VERSION } from '../version.js';
import type { DoorParts } from './door.js';
import type { Infrastructure } from './infrastructure.js';

export function assembleApp(
  config: Config,
  infra: Infrastructure,
  parts: DoorParts,
  checks: Readonly<Record<string, HealthCheck>>,
): FramedApp {
  const { log, metrics } = infra;
  return buildApp({
    log,
    paid: { door: parts.door, publicBaseUrl: config.publicBaseUrl },
    ...(metrics ? { metrics } : {}),
    mounted: [createMcpHandler(parts.door, config.batchDiscountPercent)],
    ...(parts.watchFeature ? { watches: { state: parts.watchFeature.state } } : {}),
    discovery: discoveryOf(config, infra, checks),
    extraRoutes: [
      createDocsRoutes({
        openapiPath: DISCOVERY_PATHS.openapi,
        title: `${SERVICE_NAME} — API reference`,
        publicBaseUrl: config.publicBaseUrl,
        mcp: mcpDocsSection(config.batchDiscountPercent),
        intro: docsIntro(config.v1Network, config.batchDiscountPercent),
      }),
    ],
  });
}

function discoveryOf(
  config: Config,
  infra: Infrastructure,
  checks: Readonly<Record<string, HealthCheck>>,
): DiscoveryDeps {
  const { facilitators } = infra;
  return {
    mode: config.mode,
    payTo: config.payTo!,
    publicBaseUrl: config.publicBaseUrl,
    serviceVersion: SERVICE_VERSION,
    maxTimeoutSeconds: config.maxTimeoutSeconds,
    contactEmail: config.contactEmail,
    facilitators,
    health: { mode: config.mode, version: SERVICE_VERSION, startedAt: Date.now(), facilitators, checks },
    mcp: mcpFacts(config.batchDiscountPercent),
    discountPercent: config.batchDiscountPercent,
    signingKeys: jwks([infra.signingKey.publicJwk]),
  };
}
