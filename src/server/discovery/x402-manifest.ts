/**
 * /.well-known/x402.json: the per-origin discovery manifest of x402-foundation/x402
 * `specs/extensions/well-known-discovery.md` (a draft; followed as of commit 268f071, with the
 * `DiscoveryManifest` types of `typescript/packages/core/src/types/discovery.ts` there).
 *
 * One item per paid endpoint, projected from what the live 402 is built from, so the two cannot
 * drift: `resource` as the v2 offer names it (the service name, tags and icon too) but with the
 * route template for its URL, the v2 requirement as `accepts` (advisory: the live 402 is
 * authoritative), and the bazaar extension's contract lifted to `input` and `output`. The
 * format has no place for a contact.
 */
import { honoPath, orderPriceUsd, PAID_ENDPOINTS, type PaidEndpoint } from '../../catalog.js';
import { answerExample } from '../../x402/bazaar.js';
import { answerJsonSchema, offerExtensions, v2Requirement } from '../../x402/offer.js';
import type { DiscoveryContext } from './context.js';

const MIME_TYPE = 'application/json';

/** The bazaar extension's JSON Schema of the path parameters (`{ mint: string }`) or of the body. */
function inputSchema(endpoint: PaidEndpoint, part: 'pathParams' | 'body'): Record<string, unknown> {
  const bazaar = offerExtensions(endpoint).bazaar as {
    schema: { properties: { input: { properties: Record<string, Record<string, unknown>> } } };
  };
  return bazaar.schema.properties.input.properties[part]!;
}

function input(endpoint: PaidEndpoint) {
  if (endpoint.method === 'POST') {
    return { method: 'POST', bodyType: 'json', body: inputSchema(endpoint, 'body') };
  }
  return {
    method: 'GET',
    routeTemplate: honoPath(endpoint.path),
    pathParams: inputSchema(endpoint, 'pathParams'),
  };
}

function manifestItem(ctx: DiscoveryContext, endpoint: PaidEndpoint) {
  const routeTemplate = honoPath(endpoint.path);
  return {
    resource: {
      url: ctx.origin + routeTemplate,
      description: endpoint.summary,
      mimeType: MIME_TYPE,
      ...ctx.service,
    },
    type: 'http',
    // The least one order costs (one item of the cheapest kind, for a batch), as the live 402 asks.
    accepts: [v2Requirement(endpoint, ctx, orderPriceUsd(endpoint, 1, ctx.discountPercent))],
    input: input(endpoint),
    output: { mimeType: MIME_TYPE, example: answerExample(endpoint), schema: answerJsonSchema(endpoint) },
  };
}

/**
 * The manifest. `lastUpdated` is when it was rendered: documents are rendered once per origin
 * and again only when the advertised facilitator (and with it `accepts`) changes.
 */
export function x402Manifest(ctx: DiscoveryContext) {
  return {
    x402Version: 2,
    lastUpdated: Math.floor(Date.now() / 1000),
    items: PAID_ENDPOINTS.map((endpoint) => manifestItem(ctx, endpoint)),
  };
}
