/**
 * GET /docs: the interactive API reference (Swagger UI), served entirely by this service so it
 * works offline and under a same-origin-only Content-Security-Policy.
 */
import { type Context, Hono } from 'hono';
import { routePath } from 'hono/route';
import { reasonError } from '../../errors.js';
import { reason } from '../../reasons.js';
import type { RequestFrame } from '../context.js';
import { type DocsAsset, loadDocsAssets } from './assets.js';
import type { DocsIntro } from './intro.js';
import { type DocsMcpSection, docsContentSecurityPolicy, renderDocsPage } from './page.js';

export interface DocsRoutesOptions {
  /** Same-origin path of the OpenAPI document the page renders, e.g. `/openapi.json`. */
  readonly openapiPath: string;
  /** Page title. */
  readonly title: string;
  /** PUBLIC_BASE_URL, when set: the server the OpenAPI document names, which "try it out" calls. */
  readonly publicBaseUrl?: string | null;
  /** The MCP endpoint and its tools, listed with the other ways in. */
  readonly mcp?: DocsMcpSection;
  /** Name, what it is, how to pay and the ways in, first on the page. */
  readonly intro?: DocsIntro;
}

export const DOCS_PATH = '/docs';
export const DOCS_ASSETS_PATH = `${DOCS_PATH}/assets`;

/** Asset URLs carry a content hash, so a cached copy can never be stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Routes for `/docs`, `/docs/` and `/docs/assets/<hashed name>`. Every file is read (and
 * compressed) here, once; requests only pick a prepared buffer.
 */
export function createDocsRoutes(options: DocsRoutesOptions): Hono {
  // A full URL would be blocked by the page's connect-src 'self' anyway; fail at startup instead.
  if (!options.openapiPath.startsWith('/') || options.openapiPath.startsWith('//')) {
    throw new TypeError(
      `openapiPath must be a same-origin path like /openapi.json, got ${options.openapiPath}`,
    );
  }
  const assets = loadDocsAssets();
  const policy = docsContentSecurityPolicy(
    options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : null,
  );
  const page = renderDocsPage({
    title: options.title,
    openapiPath: options.openapiPath,
    assetsPath: DOCS_ASSETS_PATH,
    assets,
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    ...(options.intro === undefined ? {} : { intro: options.intro }),
  });

  const routes = new Hono();
  routes.get(DOCS_PATH, (c) => {
    noteRoute(c);
    return c.html(page, 200, {
      'Content-Security-Policy': policy,
      // Revalidate the page so a deploy's new asset names are picked up at once.
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });
  routes.get(`${DOCS_PATH}/`, (c) => {
    noteRoute(c);
    const query = new URL(c.req.url).search;
    return c.redirect(`${DOCS_PATH}${query}`, 301);
  });
  routes.get(`${DOCS_ASSETS_PATH}/:name`, (c) => {
    noteRoute(c);
    const asset = assets.byName.get(c.req.param('name'));
    if (asset === undefined) {
      const missing = reason('docs_asset_not_found', { name: c.req.param('name').slice(0, 200) });
      const body = reasonError(missing).toBody(requestIdOf(c));
      return c.json(body, 404, { 'Cache-Control': 'no-store' });
    }
    return assetResponse(asset, c.req.header('If-None-Match'), c.req.header('Accept-Encoding'));
  });
  return routes;
}

function assetResponse(
  asset: DocsAsset,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
) {
  const gzip = asset.gzipped !== undefined && acceptsGzip(acceptEncoding);
  const body = gzip && asset.gzipped !== undefined ? asset.gzipped : asset.body;
  // Each encoding is its own representation, so it gets its own strong validator.
  const etag = gzip ? `${asset.etag.slice(0, -1)}-gzip"` : asset.etag;
  const headers = new Headers({
    'Cache-Control': IMMUTABLE,
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  });
  if (asset.gzipped !== undefined) headers.set('Vary', 'Accept-Encoding');
  if (matchesEtag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });

  headers.set('Content-Type', asset.contentType);
  if (gzip) headers.set('Content-Encoding', 'gzip');
  headers.set('Content-Length', String(body.byteLength));
  // Node's Buffers and TextEncoder output are ArrayBuffer-backed; the cast only narrows the type.
  return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2): a W/ prefix does not prevent a match. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** Whether Accept-Encoding allows gzip: listed (or covered by `*`) and not refused with q=0. */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)));
  }
  const weight = weights.get('gzip') ?? weights.get('*') ?? 0;
  return weight > 0;
}

/** The service's request frame when mounted in the main app; absent when these routes run alone. */
function frameOf(c: Context): RequestFrame | undefined {
  return (c.env as { frame?: RequestFrame } | undefined)?.frame;
}

function requestIdOf(c: Context): string | undefined {
  return frameOf(c)?.requestId;
}

/** Names the answering route in the request's log line. */
function noteRoute(c: Context): void {
  const frame = frameOf(c);
  if (frame !== undefined) frame.route = routePath(c) || null;
}
