/**
 * The MCP tools, generated from the catalog: one per paid endpoint (`scan_token`, `verify_tx`,
 * `simulate_tx`, …) and the free `list_endpoints`. Both MCP servers (POST /mcp in the API, and
 * `risk-scan mcp`, which pays from a keypair) publish exactly these names, descriptions and input
 * schemas.
 */
import { z } from 'zod';
import {
  EFFECTS,
  listedPrice,
  PAID_ENDPOINTS,
  type PaidEndpoint,
  type Producer,
  priceText,
} from '../catalog.js';
import { paramTextHints } from '../contract/schemas.js';
import { SERVICE_DESCRIPTION } from '../identity.js';

export const MCP_PATH = '/mcp';
export const LIST_TOOL = 'list_endpoints';

/** Every paid endpoint, GET or POST, is a tool. */
export const TOOL_ENDPOINTS: readonly PaidEndpoint[] = PAID_ENDPOINTS;

/**
 * '/scan/token/{mint}' → 'scan_token', '/verify/tx/{signature}' → 'verify_tx', '/simulate/tx' →
 * 'simulate_tx'; or the catalog's own name (`watch_subject`).
 */
export function toolName(endpoint: PaidEndpoint): string {
  if (endpoint.tool !== undefined) return endpoint.tool;
  return endpoint.path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .join('_');
}

/** What the tool returns, for its description: what its endpoint's producer sells. */
const RETURNS: Readonly<Record<Producer, string>> = {
  scan: 'Returns a ScanResult as structured content: risk_score (0 = no risk, 1 = maximum), flags, confidence, summary, recommendation, reasoning and evidence.',
  watch:
    'Returns the watch as structured content: watch_id (keep it: it reads and cancels the watch), expires_at, the baseline ScanResult and how alerts are signed (signing.secret verifies v1, the published key v1a).',
  batch:
    'Returns as structured content one ScanResult per subject in the order sent (results[i] answers subjects[i]), charged_items (the distinct subjects paid for) and the request_id.',
};

/** What a host's model reads before calling: the price first, then what is checked and returned. */
export function toolDescription(endpoint: PaidEndpoint, howPaid: string, discountPercent = 0): string {
  return [
    `${endpoint.summary}. Price: ${priceText(endpoint, discountPercent)}, ${howPaid}.`,
    endpoint.description,
    RETURNS[endpoint.producer],
  ].join(' ');
}

/**
 * What a host is told the tool does (MCP tool annotations), from what its endpoint sells: a scan
 * only reads, and asking again changes nothing; a watch is created, and each call buys another.
 */
export function toolAnnotations(endpoint: PaidEndpoint) {
  const effects = EFFECTS[endpoint.producer];
  return {
    readOnlyHint: effects.readOnly,
    idempotentHint: effects.idempotent,
    destructiveHint: effects.destructive,
    openWorldHint: effects.openWorld,
  };
}

/**
 * The tool's arguments: the endpoint's path parameter, or the properties of its JSON body. The
 * schema states each value's shape (as OpenAPI does) without enforcing it, so a wrong value is
 * refused by the same admission and in the same words as the HTTP route's 400, not by a generic
 * validator.
 */
export function toolInputShape(endpoint: PaidEndpoint) {
  return INPUT_SHAPES.get(endpoint.id)!;
}

/** A body property's JSON Schema as a zod type of its JSON type, the rest as metadata only. */
function propertySchema(property: Readonly<Record<string, unknown>>) {
  const { type, ...hints } = property;
  if (type === 'array') {
    // A list of addresses (a batch's subjects): each item's shape is stated, as a path parameter's is.
    const { items, ...rest } = hints;
    return z.array(z.string().meta((items ?? {}) as Record<string, unknown>)).meta(rest);
  }
  const base = type === 'integer' || type === 'number' ? z.number() : z.string();
  return base.meta(hints);
}

function argumentShape(endpoint: PaidEndpoint): Record<string, z.ZodType> {
  if (endpoint.method === 'POST') {
    const { properties } = endpoint.body.schema;
    return Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, propertySchema(p)]));
  }
  const { name, kind, description, example } = endpoint.param;
  return { [name]: z.string().meta({ description, examples: [example], ...paramTextHints(kind) }) };
}

// Built once: /mcp builds a server per request, and a zod schema costs more than the rest of it.
const INPUT_SHAPES = new Map(
  TOOL_ENDPOINTS.map((endpoint) => [endpoint.id, argumentShape(endpoint)] as const),
);

/** The endpoint's raw input from a tool's arguments: a GET's path parameter, a POST's body as JSON. */
export function toolInput(endpoint: PaidEndpoint, args: Readonly<Record<string, unknown>>): string {
  return endpoint.method === 'GET' ? String(args[endpoint.param.name]) : JSON.stringify(args);
}

export const endpointOf = (name: string): PaidEndpoint | undefined =>
  TOOL_ENDPOINTS.find((endpoint) => toolName(endpoint) === name);

/** The free tool's answer: every paid tool with its HTTP endpoint and price (the least, per item). */
export function endpointList(discountPercent = 0) {
  return {
    description: SERVICE_DESCRIPTION,
    endpoints: TOOL_ENDPOINTS.map((e) => ({
      tool: toolName(e),
      method: e.method,
      path: e.path,
      price_usd: listedPrice(e, discountPercent).usd,
      ...(listedPrice(e).per === 'call' ? {} : { price_per: listedPrice(e).per }),
      ...(listedPrice(e).per === 'item' ? { price: priceText(e, discountPercent) } : {}),
      summary: e.summary,
      description: e.description,
    })),
  };
}

export const endpointListSchema = {
  description: z.string(),
  endpoints: z.array(
    z.object({
      tool: z.string(),
      method: z.string(),
      path: z.string(),
      price_usd: z.number(),
      price_per: z.enum(['hour', 'item']).optional(),
      price: z.string().optional(),
      summary: z.string(),
      description: z.string(),
    }),
  ),
};

export const LIST_TOOL_DESCRIPTION =
  'Lists the paid tools of Solana Risk Scan with their HTTP endpoints and prices in USDC. Free.';

/** A tool as discovery documents list it: a paid one with its HTTP path and price, the free one with none. */
export interface ToolFact {
  readonly name: string;
  readonly path: string | null;
  readonly priceUsd: number;
  /** Set for a tool priced per hour or per item. */
  readonly per?: 'hour' | 'item';
}

/** The MCP endpoint as discovery documents list it: its path and its tools. */
export function mcpFacts(discountPercent = 0): {
  readonly path: string;
  readonly tools: readonly ToolFact[];
} {
  return {
    path: MCP_PATH,
    tools: [
      ...TOOL_ENDPOINTS.map((e) => {
        const { usd, per } = listedPrice(e, discountPercent);
        return { name: toolName(e), path: e.path, priceUsd: usd, ...(per === 'call' ? {} : { per }) };
      }),
      { name: LIST_TOOL, path: null, priceUsd: 0 },
    ],
  };
}

/** The MCP endpoint as /docs lists it. */
export function mcpDocsSection(discountPercent = 0) {
  return {
    path: MCP_PATH,
    tools: [
      ...TOOL_ENDPOINTS.map((e) => ({
        name: toolName(e),
        summary: e.summary,
        price: priceText(e, discountPercent),
      })),
      { name: LIST_TOOL, summary: 'Endpoints and prices', price: 'free' },
    ],
    payment:
      'A tool called without payment answers the x402 PaymentRequired offer; call it again with the signed PaymentPayload in _meta["x402/payment"], and the settlement comes back in _meta["x402/payment-response"].',
    local:
      'Hosts that cannot pay run a local MCP server on stdio that pays each call from a keypair: npx risk-scan mcp --keypair FILE --max-usd N.',
  };
}
