/** The OpenAPI 3.1 document, generated from the catalog and the zod schemas. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import {
  listedPrice,
  PAID_ENDPOINTS,
  type PaidEndpoint,
  priceRange,
  priceText,
  unitPriceText,
  usdText,
} from '../../catalog.js';
import { DECISION_FIELD, publishedDecisionTable } from '../../contract/decision.js';
import { ErrorBodySchema, PaymentRequiredSchema } from '../../contract/schemas.js';
import { INTERFACE_VERSION, X402_VERSION } from '../../version.js';
import { WatchViewSchema } from '../../watch/door/view.js';
import { ADVERTISED_NETWORK, USDC_MINT } from '../../x402/networks.js';
import { WATCH_ID_PATH } from '../watch-routes.js';
import { DISCOVERY_PATHS, type DiscoveryContext, SERVICE_DESCRIPTION, SERVICE_NAME } from './context.js';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

/**
 * What the responses mean beyond their names. The response descriptions themselves are the
 * contract's words (interface.md §4.1); this goes in the operation's description.
 */
const RESPONSE_NOTES =
  'A 400 is answered before any payment is asked for. The 402 body is the x402 v1 PaymentRequired; its PAYMENT-REQUIRED header carries the same offer for x402 v2 clients. A 500 charges nothing: a payment is settled only for a delivered result.';

/** USD amount as a decimal string with at least two places: 0.5 → "0.50", 0.125 → "0.125". */
export const usdAmount = usdText;

/**
 * `x-payment-info` as the AgentCash discovery specification (v1 §7) shapes it: a fixed price in
 * USD, or for an endpoint priced per hour the range from one hour to the longest order, paid
 * with x402. The 402 offer itself stays the source of truth for network, asset and amount.
 */
export function paymentInfo(endpoint: PaidEndpoint, discountPercent = 0) {
  const { usd, per } = listedPrice(endpoint, discountPercent);
  const { min, max } = priceRange(endpoint, discountPercent);
  const price =
    per === 'call'
      ? { mode: 'fixed' as const, currency: 'USD', amount: usdAmount(usd) }
      : { mode: 'dynamic' as const, currency: 'USD', min: usdAmount(min), max: usdAmount(max) };
  return { price, protocols: [{ x402: {} }] };
}

/** '0.30 USD', '0.01 USD per hour', '0.02 to 0.50 USD per item'. */
function guidePrice(endpoint: PaidEndpoint, discountPercent: number): string {
  const { usd, per } = listedPrice(endpoint, discountPercent);
  if (per === 'item') return `${unitPriceText(endpoint.price, discountPercent)} USD per item`;
  return per === 'call' ? `${usdAmount(usd)} USD` : `${usdAmount(usd)} USD per ${per}`;
}

/** info.x-guidance: how an agent uses the service, in a few lines (kept well under 4000 chars). */
function guidance(discountPercent: number): string {
  return [
    'Each paid scan is a GET with one path parameter: a base58 address, or a transaction signature for /verify/tx; POST /simulate/tx takes a JSON body {"transaction": "<base64>"} of a transaction not yet sent. Pick it by subject:',
    ...PAID_ENDPOINTS.map(
      (e) => `- ${e.method} ${e.path} (${guidePrice(e, discountPercent)}): ${e.summary}.`,
    ),
    'POST /scan/batch takes a JSON body {"kind": "token" | "pumpfun" | "wallet", "subjects": [1 to 25 addresses]}: one payment for the distinct subjects at their single prices, one ScanResult per subject in the order sent.',
    'POST /watch takes a JSON body {"kind", "subject", "webhook", "hours"} and costs hours × its price per hour: a signed alert at the webhook whenever the subject\'s flags or risk score change. GET /watch/{id} reads a watch and DELETE /watch/{id} cancels it (free; the id is the only key).',
    'Call it without payment: the 402 answer carries the x402 offer (v1 in the body, v2 in the PAYMENT-REQUIRED header), USDC on Solana mainnet. Pay it with any x402 client and repeat the call with X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2).',
    'A malformed parameter is answered 400 before any payment; a failed scan is a 500 and costs nothing.',
    'Read risk_score (0–1, higher is riskier), recommendation and flags from the JSON result; evidence and reasoning explain them.',
    `To gate an action, read ${DECISION_FIELD}: proceed, caution, avoid or do_not_interact, the risk_score bucket of x-risk-decision.`,
  ].join('\n');
}

/**
 * info.contact: the service itself (its root names every document and link), plus the
 * operator's address when CONTACT_EMAIL is set.
 */
function contact(ctx: DiscoveryContext) {
  return {
    name: SERVICE_NAME,
    url: ctx.origin,
    ...(ctx.contactEmail === null ? {} : { email: ctx.contactEmail }),
  };
}

/** What the operation takes: the path parameter of a GET, the JSON body of a POST. */
function operationInput(endpoint: PaidEndpoint) {
  if (endpoint.method === 'POST') {
    const { schema, example } = endpoint.body;
    return {
      body: {
        required: true,
        description: schema.description,
        content: { 'application/json': { schema: { ...schema, example } as Record<string, unknown> } },
      },
    };
  }
  return { params: z.object({ [endpoint.param.name]: endpoint.param.input }) };
}

function cacheNote(endpoint: PaidEndpoint): string {
  if (endpoint.producer === 'batch')
    return 'Each result is served from the cache as its single scan would be.';
  return endpoint.cacheTtlSeconds === 0
    ? 'Results are never served from the cache.'
    : `Results are cached for up to ${endpoint.cacheTtlSeconds / 60} min.`;
}

/** '0.30 USDC' for a price per call (as it always read), '0.01 USDC per hour' otherwise. */
const summaryPrice = (endpoint: PaidEndpoint, discountPercent: number): string =>
  listedPrice(endpoint).per === 'call'
    ? `${listedPrice(endpoint).usd.toFixed(2)} USDC`
    : `${unitPriceText(endpoint.price, discountPercent)} USDC per ${endpoint.price.per}`;

function paidOperation(endpoint: PaidEndpoint, discountPercent: number) {
  return {
    method: endpoint.method === 'GET' ? ('get' as const) : ('post' as const),
    path: endpoint.path,
    operationId: endpoint.operationId,
    tags: ['Paid scans'],
    summary: `${endpoint.summary} — ${summaryPrice(endpoint, discountPercent)}`,
    description: `${endpoint.description}\n\nPrice: ${priceText(endpoint, discountPercent)}, paid with x402. ${cacheNote(endpoint)}\n\n${RESPONSE_NOTES}`,
    'x-x402-price-usd': listedPrice(endpoint, discountPercent).usd,
    ...(listedPrice(endpoint).per === 'call' ? {} : { 'x-x402-price-per': listedPrice(endpoint).per }),
    // The x402scan / AgentCash profile: payment is declared here, not as API authentication.
    'x-payment-info': paymentInfo(endpoint, discountPercent),
    security: [],
    request: operationInput(endpoint),
    responses: {
      200: {
        description: 'scan result',
        headers: {
          'X-Signature': {
            description: `ed25519 keyid=<kid>; sig=<base64>: the Ed25519 signature of the body's exact bytes, with the key of that kid in ${DISCOVERY_PATHS.signingKeys}`,
            schema: { type: 'string' as const },
          },
        },
        content: json(endpoint.response),
      },
      400: { description: 'invalid input', content: json(ErrorBodySchema) },
      402: {
        description: 'payment required (X402 protocol)',
        headers: {
          'PAYMENT-REQUIRED': {
            description: 'base64 JSON of the x402 v2 PaymentRequired',
            schema: { type: 'string' as const },
          },
        },
        content: json(PaymentRequiredSchema),
      },
      500: { description: 'scan failed', content: json(ErrorBodySchema) },
      ...(endpoint.noRoom === undefined
        ? {}
        : { 503: { description: endpoint.noRoom, content: json(ErrorBodySchema) } }),
    },
  };
}

/** GET and DELETE /watch/{id}: free, for whoever holds the id. */
function watchOperations() {
  const request = {
    params: z.object({
      id: z.string().meta({ description: 'The watch id POST /watch answered.', example: 'w_…' }),
    }),
  };
  const responses = {
    200: { description: 'the watch', content: json(WatchViewSchema) },
    404: { description: 'no watch has this id', content: json(ErrorBodySchema) },
  };
  const common = { path: WATCH_ID_PATH, tags: ['Watches'], security: [], request, responses };
  return [
    {
      ...common,
      method: 'get' as const,
      operationId: 'getWatch',
      summary: 'A watch: its state, expiry, latest verdict and last deliveries (free)',
    },
    {
      ...common,
      method: 'delete' as const,
      operationId: 'cancelWatch',
      summary: 'Cancel a watch; no refund (free)',
    },
  ];
}

const FREE_OPERATIONS: readonly {
  path: string;
  summary: string;
  type: 'json' | 'text' | 'markdown' | 'html' | 'jwks';
}[] = [
  { path: DISCOVERY_PATHS.root, summary: 'Service root: endpoints, prices and links', type: 'json' },
  { path: DISCOVERY_PATHS.health, summary: 'Health check with dependency status', type: 'json' },
  { path: DISCOVERY_PATHS.openapi, summary: 'This OpenAPI 3.1 document', type: 'json' },
  { path: DISCOVERY_PATHS.x402Discovery, summary: 'x402 payment metadata for agents', type: 'json' },
  { path: DISCOVERY_PATHS.x402Manifest, summary: 'x402 well-known discovery manifest', type: 'json' },
  { path: DISCOVERY_PATHS.agentCard, summary: 'A2A agent card with the x402 extension', type: 'json' },
  { path: DISCOVERY_PATHS.aiPlugin, summary: 'Plugin manifest', type: 'json' },
  { path: DISCOVERY_PATHS.aiTxt, summary: 'Text file for agents', type: 'text' },
  { path: DISCOVERY_PATHS.llmsTxt, summary: 'Text index for language-model agents', type: 'markdown' },
  { path: DISCOVERY_PATHS.robotsTxt, summary: 'Crawler rules', type: 'text' },
  { path: DISCOVERY_PATHS.docs, summary: 'Interactive API reference', type: 'html' },
  {
    path: DISCOVERY_PATHS.signingKeys,
    summary: 'Public keys paid results are signed with (JWKS)',
    type: 'jwks',
  },
];

const MEDIA = {
  json: 'application/json',
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  jwks: 'application/jwk-set+json',
} as const;

export function buildOpenApiDocument(ctx: DiscoveryContext): Record<string, unknown> {
  const app = new OpenAPIHono();
  for (const endpoint of PAID_ENDPOINTS) {
    app.openAPIRegistry.registerPath(paidOperation(endpoint, ctx.discountPercent));
  }
  for (const operation of watchOperations()) app.openAPIRegistry.registerPath(operation);
  for (const op of FREE_OPERATIONS) {
    app.openAPIRegistry.registerPath({
      method: 'get',
      path: op.path,
      tags: ['Free discovery'],
      summary: op.summary,
      security: [],
      responses: { 200: { description: op.summary, content: { [MEDIA[op.type]]: { schema: z.string() } } } },
    });
  }
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: INTERFACE_VERSION,
      description: `${SERVICE_DESCRIPTION}\n\nCall a paid endpoint without payment to get its 402 offer; pay it with any x402 client and repeat the call.`,
      contact: contact(ctx),
    },
    servers: [{ url: ctx.origin }],
    tags: [
      { name: 'Paid scans', description: 'One x402 payment per call.' },
      { name: 'Free discovery', description: 'No payment needed.' },
      { name: 'Watches', description: 'Read or cancel a watch by its id; no payment needed.' },
    ],
  }) as unknown as Record<string, unknown>;
  (document.info as Record<string, unknown>)['x-guidance'] = guidance(ctx.discountPercent);
  // The buckets evidence.decision is named from, beside the contract's x-x402 (which stays as it is).
  document['x-risk-decision'] = publishedDecisionTable();
  document['x-agentcash-guidance'] = { llmsTxtUrl: ctx.origin + DISCOVERY_PATHS.llmsTxt };
  document['x-x402'] = {
    version: X402_VERSION,
    facilitators: [...ctx.facilitatorIds],
    asset: USDC_MINT,
    network: ADVERTISED_NETWORK,
  };
  return document;
}
