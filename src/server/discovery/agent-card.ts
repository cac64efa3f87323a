/**
 * /.well-known/agent-card.json: an A2A AgentCard (A2A protocol 0.3.0, the version the x402 A2A
 * extension is written against) declaring the x402 payments extension as x402-foundation/x402
 * `specs/transports-v2/a2a.md` does, with one skill per paid endpoint, generated from the catalog.
 *
 * The service does not speak A2A's JSON-RPC: its interfaces are the paid HTTP API and the MCP
 * endpoint, named with transport values of their own (A2A allows values beyond its core three),
 * so an A2A client that only knows JSON-RPC finds no interface it could misuse.
 */
import { concretePath, listedPrice, PAID_ENDPOINTS, type PaidEndpoint, priceText } from '../../catalog.js';
import { publishedDecisionTable } from '../../contract/decision.js';
import { X402_VERSION } from '../../version.js';
import { SOLANA_MAINNET_CAIP2, USDC_MINT } from '../../x402/networks.js';
import { DISCOVERY_PATHS, type DiscoveryContext, SERVICE_DESCRIPTION, SERVICE_NAME } from './context.js';
import { usdAmount } from './openapi.js';

export const A2A_PROTOCOL_VERSION = '0.3.0';
/** The extension URI x402's A2A transport spec declares (the a2a-x402 extension, v0.1). */
export const X402_A2A_EXTENSION_URI = 'https://github.com/google-a2a/a2a-x402/v0.1';
/** The decision table's own extension: its URI is where the table is published in OpenAPI. */
export const riskDecisionExtensionUri = (ctx: DiscoveryContext) =>
  `${ctx.origin}${DISCOVERY_PATHS.openapi}#x-risk-decision`;
/** The paid HTTP API: a GET with one path parameter or a POST with a JSON body, paid per call with an x402 header. */
export const HTTP_X402_TRANSPORT = 'HTTP+X402';
/** MCP over streamable HTTP. */
export const MCP_TRANSPORT = 'MCP';

function skill(ctx: DiscoveryContext, endpoint: PaidEndpoint) {
  const { usd, per } = listedPrice(endpoint, ctx.discountPercent);
  // A price per item varies by kind: the rule's own words.
  const price =
    per === 'item' ? priceText(endpoint, ctx.discountPercent) : `${usdAmount(usd)} USDC per ${per}`;
  return {
    id: endpoint.operationId,
    name: endpoint.summary,
    description: `${endpoint.description} Price: ${price}, paid with x402. Call ${endpoint.method} ${ctx.origin}${endpoint.path}; the 402 answer carries the offer.`,
    tags: ['solana', 'risk', endpoint.id, ...endpoint.assesses],
    examples: [
      endpoint.method === 'GET'
        ? `GET ${concretePath(endpoint, endpoint.param.example)}`
        : `POST ${endpoint.path} ${JSON.stringify(endpoint.body.example)}`,
    ],
    inputModes: ['text/plain'],
    outputModes: ['application/json'],
  };
}

/**
 * A2A's provider has only an organization and a URL; the URL is how to reach the operator: a
 * mailto: link when CONTACT_EMAIL is set, else the service itself, whose root names every link.
 */
function provider(ctx: DiscoveryContext) {
  const url = ctx.contactEmail === null ? ctx.origin : `mailto:${ctx.contactEmail}`;
  return { organization: SERVICE_NAME, url };
}

export function agentCard(ctx: DiscoveryContext) {
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    url: ctx.origin,
    preferredTransport: HTTP_X402_TRANSPORT,
    additionalInterfaces: [
      { url: ctx.origin, transport: HTTP_X402_TRANSPORT },
      { url: ctx.origin + ctx.mcp.path, transport: MCP_TRANSPORT },
    ],
    iconUrl: ctx.origin + DISCOVERY_PATHS.favicon,
    documentationUrl: ctx.origin + DISCOVERY_PATHS.docs,
    provider: provider(ctx),
    version: ctx.serviceVersion,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: X402_A2A_EXTENSION_URI,
          description: `Every skill is paid per call with x402 v${X402_VERSION}: USDC on Solana mainnet, exact scheme.`,
          required: true,
          params: {
            network: SOLANA_MAINNET_CAIP2,
            asset: USDC_MINT,
            payTo: ctx.payTo,
            discovery: ctx.origin + DISCOVERY_PATHS.x402Manifest,
          },
        },
        {
          uri: riskDecisionExtensionUri(ctx),
          description: 'Every result carries evidence.decision, the risk_score bucket given in params.',
          required: false,
          params: publishedDecisionTable(),
        },
      ],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['application/json'],
    skills: PAID_ENDPOINTS.map((endpoint) => skill(ctx, endpoint)),
  };
}
