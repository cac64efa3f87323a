/**
 * The MCP tools, generated from the catalog: one per paid endpoint (`scan_token`, `verify_tx`,
 * `simulate_tx`, …) and the free `list_endpoints`. Both MCP servers (POST /mcp in the API, and
 * `risk-scan mcp`, which pays from a keypair) publish exactly these names, descriptions and input
 * schemas.
 */
import { z } from 'zod';
import { PAID_ENDPOINTS, type PaidEndpoint } from '../catalog.js';
import { paramTextHints } from '../contract/schemas.js';
import { SERVICE_DESCRIPTION } from '../identity.js';

export const MCP_PATH = '/mcp';
export const LIST_TOOL = 'list_endpoints';

/** Every paid endpoint, GET or POST, is a tool. */
export const TOOL_ENDPOINTS: readonly PaidEndpoint[] = PAID_ENDPOINTS;

/** '/scan/token/{mint}' → 'scan_token', '/verify/tx/{signature}' → 'verify_tx', '/simulate/tx' → 'simulate_tx'. */
export function toolName(endpoint: PaidEndpoint): string {
  return endpoint.path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .join('_');
}

export const priceText = (endpoint: PaidEndpoint) => `${endpoint.priceUsd.toFixed(2)} USDC`;

/** What a host's model reads before calling: the price first, then what is checked and returned. */
export function toolDescription(endpoint: PaidEndpoint, howPaid: string): string {
  return [
    `${endpoint.summary}. Price: ${priceText(endpoint)} per call, ${howPaid}.`,
    endpoint.description,
    'Returns a ScanResult as structured content: risk_score (0 = no risk, 1 = maximum), flags, confidence, summary, recommendation, reasoning and evidence.',
  ].join(' ');
}

/** The name of the tool's one argument: a GET's path parameter, a POST's body field. */
export const argumentName = (endpoint: PaidEndpoint): string =>
  endpoint.method === 'GET' ? endpoint.param.name : endpoint.body.field;

/**
 * The tool's one argument: the endpoint's path parameter, or the one field of its JSON body. The
 * schema states the text's shape (as OpenAPI does) without enforcing it, so a wrong value is
 * refused by the same admission and in the same words as the HTTP route's 400, not by a generic
 * validator.
 */
export function toolInputShape(endpoint: PaidEndpoint) {
  return INPUT_SHAPES.get(endpoint.id)!;
}

function argumentSchema(endpoint: PaidEndpoint) {
  if (endpoint.method === 'POST') {
    const { description, examples, contentEncoding, maxLength } = endpoint.body.schema.properties[
      endpoint.body.field
    ] as { description: string; examples: string[]; contentEncoding: string; maxLength: number };
    return z.string().meta({ description, examples, contentEncoding, maxLength });
  }
  const { kind, description, example } = endpoint.param;
  return z.string().meta({ description, examples: [example], ...paramTextHints(kind) });
}

// Built once: /mcp builds a server per request, and a zod schema costs more than the rest of it.
const INPUT_SHAPES = new Map(
  TOOL_ENDPOINTS.map(
    (endpoint) => [endpoint.id, { [argumentName(endpoint)]: argumentSchema(endpoint) }] as const,
  ),
);

export const endpointOf = (name: string): PaidEndpoint | undefined =>
  TOOL_ENDPOINTS.find((endpoint) => toolName(endpoint) === name);

/** The free tool's answer: every paid tool with its HTTP endpoint and price. */
export function endpointList() {
  return {
    description: SERVICE_DESCRIPTION,
    endpoints: TOOL_ENDPOINTS.map((e) => ({
      tool: toolName(e),
      method: e.method,
      path: e.path,
      price_usd: e.priceUsd,
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
}

/** The MCP endpoint as discovery documents list it: its path and its tools. */
export function mcpFacts(): { readonly path: string; readonly tools: readonly ToolFact[] } {
  return {
    path: MCP_PATH,
    tools: [
      ...TOOL_ENDPOINTS.map((e) => ({ name: toolName(e), path: e.path, priceUsd: e.priceUsd })),
      { name: LIST_TOOL, path: null, priceUsd: 0 },
    ],
  };
}

/** The MCP endpoint as /docs lists it. */
export function mcpDocsSection() {
  return {
    path: MCP_PATH,
    tools: [
      ...TOOL_ENDPOINTS.map((e) => ({
        name: toolName(e),
        summary: e.summary,
        price: `${priceText(e)} per call`,
      })),
      { name: LIST_TOOL, summary: 'Endpoints and prices', price: 'free' },
    ],
    payment:
      'A tool called without payment answers the x402 PaymentRequired offer; call it again with the signed PaymentPayload in _meta["x402/payment"], and the settlement comes back in _meta["x402/payment-response"].',
    local:
      'Hosts that cannot pay run a local MCP server on stdio that pays each call from a keypair: npx risk-scan mcp --keypair FILE --max-usd N.',
  };
}
