/**
 * The free discovery endpoints. Each document is rendered once per origin (and again only
 * when the advertised facilitator changes), then served as pre-serialised text.
 */
import type { Hono } from 'hono';
import type { Mode } from '../../config.js';
import { serviceMetadata } from '../../x402/bazaar.js';
import type { FacilitatorDirectory } from '../../x402/facilitators.js';
import type { AppEnv } from '../context.js';
import { OriginMemo, requestOrigin } from '../origin.js';
import { type HeaderMap, reply, replyJson } from '../respond.js';
import { agentCard } from './agent-card.js';
import { DISCOVERY_PATHS, type DiscoveryContext, type McpFacts } from './context.js';
import {
  aiPluginDocument,
  aiTxt,
  llmsTxt,
  robotsTxt,
  rootDocument,
  x402DiscoveryDocument,
} from './documents.js';
import { FAVICON_SVG, FAVICON_TYPE } from './favicon.js';
import { type HealthDeps, healthReport } from './health.js';
import { buildOpenApiDocument } from './openapi.js';
import { x402Manifest } from './x402-manifest.js';

export interface DiscoveryDeps {
  readonly mode: Mode;
  readonly payTo: string;
  readonly publicBaseUrl: string | null;
  readonly serviceVersion: string;
  readonly maxTimeoutSeconds: number;
  /** CONTACT_EMAIL, or null. */
  readonly contactEmail: string | null;
  readonly facilitators: FacilitatorDirectory;
  readonly health: HealthDeps;
  /** The MCP endpoint and its tools, for the documents that list them. */
  readonly mcp: McpFacts;
  /** The JWKS of the keys paid results are signed with, served at DISCOVERY_PATHS.signingKeys. */
  readonly signingKeys: object;
  /** BATCH_DISCOUNT_PERCENT: the discount on prices per item; absent = none. */
  readonly discountPercent?: number;
}

type Rendered = { readonly body: string; readonly contentType: string };
/** A document as served: encoded once, so no request pays for UTF-8 encoding 15 KB of text. */
type Prepared = { readonly body: Uint8Array; readonly contentType: string };

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
/** RFC 7517's media type for a JWK set. */
const JWKS_TYPE = 'application/jwk-set+json';

/** The icon is the same bytes for every origin and only changes with a deploy. */
const FAVICON_BODY: Uint8Array = Buffer.from(FAVICON_SVG);
const FAVICON_HEADERS: HeaderMap = {
  'Content-Type': FAVICON_TYPE,
  'Cache-Control': 'public, max-age=86400',
  'X-Content-Type-Options': 'nosniff',
  // Opened on its own, an SVG is a document: this one needs nothing but its inline attributes.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
};

const STATIC_DOCUMENTS: ReadonlyArray<[string, (ctx: DiscoveryContext) => Rendered]> = [
  [DISCOVERY_PATHS.root, (ctx) => ({ body: JSON.stringify(rootDocument(ctx)), contentType: JSON_TYPE })],
  [
    DISCOVERY_PATHS.openapi,
    (ctx) => ({ body: JSON.stringify(buildOpenApiDocument(ctx)), contentType: JSON_TYPE }),
  ],
  [
    DISCOVERY_PATHS.x402Discovery,
    (ctx) => ({ body: JSON.stringify(x402DiscoveryDocument(ctx)), contentType: JSON_TYPE }),
  ],
  [
    DISCOVERY_PATHS.x402Manifest,
    (ctx) => ({ body: JSON.stringify(x402Manifest(ctx)), contentType: JSON_TYPE }),
  ],
  [DISCOVERY_PATHS.agentCard, (ctx) => ({ body: JSON.stringify(agentCard(ctx)), contentType: JSON_TYPE })],
  [
    DISCOVERY_PATHS.aiPlugin,
    (ctx) => ({ body: JSON.stringify(aiPluginDocument(ctx)), contentType: JSON_TYPE }),
  ],
  [DISCOVERY_PATHS.llmsTxt, (ctx) => ({ body: llmsTxt(ctx), contentType: MARKDOWN_TYPE })],
  [DISCOVERY_PATHS.aiTxt, (ctx) => ({ body: aiTxt(ctx), contentType: TEXT_TYPE })],
  [DISCOVERY_PATHS.robotsTxt, () => ({ body: robotsTxt(), contentType: TEXT_TYPE })],
];

export function registerDiscoveryRoutes(app: Hono<AppEnv>, deps: DiscoveryDeps): void {
  const service = serviceMetadata(deps.publicBaseUrl);
  const context = (origin: string): DiscoveryContext => ({
    origin,
    mode: deps.mode,
    payTo: deps.payTo,
    facilitatorIds: deps.facilitators.identifiers,
    feePayer: deps.facilitators.advertised()?.feePayer ?? null,
    serviceVersion: deps.serviceVersion,
    maxTimeoutSeconds: deps.maxTimeoutSeconds,
    service,
    contactEmail: deps.contactEmail,
    mcp: deps.mcp,
    discountPercent: deps.discountPercent ?? 0,
  });

  for (const [path, render] of STATIC_DOCUMENTS) {
    const memo = new OriginMemo<Prepared>();
    app.get(path, (c) => {
      const origin = requestOrigin(deps.publicBaseUrl, c.req.url);
      const doc = memo.get(origin, deps.facilitators.version, () => {
        const rendered = render(context(origin));
        return { body: Buffer.from(rendered.body), contentType: rendered.contentType };
      });
      return reply(c, 200, doc.body, {
        'Content-Type': doc.contentType,
        'Cache-Control': 'public, max-age=60',
      });
    });
  }

  app.get(DISCOVERY_PATHS.favicon, (c) => reply(c, 200, FAVICON_BODY, FAVICON_HEADERS));

  const keysBody: Uint8Array = Buffer.from(JSON.stringify(deps.signingKeys));
  app.get(DISCOVERY_PATHS.signingKeys, (c) =>
    reply(c, 200, keysBody, { 'Content-Type': JWKS_TYPE, 'Cache-Control': 'public, max-age=300' }),
  );

  app.get(DISCOVERY_PATHS.health, async (c) =>
    replyJson(c, 200, await healthReport(deps.health), { 'Cache-Control': 'no-store' }),
  );
}
