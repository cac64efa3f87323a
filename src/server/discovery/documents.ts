/** The free discovery documents other than OpenAPI, all generated from the catalog. */
import {
  atomicPrice,
  itemsPriceUsd,
  listedPrice,
  PAID_ENDPOINTS,
  type PaidEndpoint,
  type PriceRule,
  priceRange,
  priceText,
  USDC_DECIMALS,
} from '../../catalog.js';
import { DECISION_FIELD, DECISION_TABLE, publishedDecisionTable } from '../../contract/decision.js';
import { X402_VERSION } from '../../version.js';
import { ADVERTISED_NETWORK, SOLANA_MAINNET_CAIP2, USDC_MINT } from '../../x402/networks.js';
import { DISCOVERY_PATHS, type DiscoveryContext, SERVICE_DESCRIPTION, SERVICE_NAME } from './context.js';

/** A tool's or an endpoint's price: '0.30 USDC' per call (as it always read), '0.01 USDC per hour'. */
const price = (e: { readonly priceUsd: number; readonly per?: PriceRule['per'] }) =>
  `${e.priceUsd.toFixed(2)} USDC${e.per === undefined || e.per === 'call' ? '' : ` per ${e.per}`}`;
/** An endpoint's price as the documents word it; a price per item by its rule (it varies by kind). */
const endpointPrice = (e: PaidEndpoint, discountPercent: number) =>
  e.price.per === 'item'
    ? priceText(e, discountPercent)
    : price({ priceUsd: listedPrice(e).usd, per: listedPrice(e).per });

/**
 * `price_usd` as every document gives it, and `price_per: "hour"` for an endpoint priced per hour;
 * priced per item, `price_usd` is the cheapest item's and `price_usd_per_item` gives each kind's.
 */
function priceFields(e: PaidEndpoint, discountPercent: number) {
  const { usd, per } = listedPrice(e, discountPercent);
  const rule = e.price;
  const byKind =
    rule.per === 'item'
      ? {
          price_usd_per_item: Object.fromEntries(
            Object.keys(rule.usd).map((kind) => [kind, itemsPriceUsd(rule, kind, 1, discountPercent)]),
          ),
          price: priceText(e, discountPercent),
        }
      : {};
  return { price_usd: usd, ...(per === 'call' ? {} : { price_per: per }), ...byKind };
}

/** The MCP tools that cost, each with its price (from the least, per item); and the free ones. */
const paidTools = (ctx: DiscoveryContext) =>
  ctx.mcp.tools
    .filter((t) => t.path !== null)
    .map((t) => `${t.name} ${t.per === 'item' ? 'from ' : ''}${price(t)}`)
    .join(', ');
const freeTools = (ctx: DiscoveryContext) =>
  ctx.mcp.tools
    .filter((t) => t.path === null)
    .map((t) => t.name)
    .join(', ');

function links(ctx: DiscoveryContext) {
  const at = (path: string) => ctx.origin + path;
  return {
    openapi: at(DISCOVERY_PATHS.openapi),
    docs: at(DISCOVERY_PATHS.docs),
    x402_discovery: at(DISCOVERY_PATHS.x402Discovery),
    x402_manifest: at(DISCOVERY_PATHS.x402Manifest),
    agent_card: at(DISCOVERY_PATHS.agentCard),
    ai_plugin: at(DISCOVERY_PATHS.aiPlugin),
    llms_txt: at(DISCOVERY_PATHS.llmsTxt),
    ai_txt: at(DISCOVERY_PATHS.aiTxt),
    health: at(DISCOVERY_PATHS.health),
    favicon: at(DISCOVERY_PATHS.favicon),
    signing_keys: at(DISCOVERY_PATHS.signingKeys),
    mcp: at(ctx.mcp.path),
  };
}

/** The MCP endpoint as discovery documents describe it: where, how, and its tools with their prices. */
function mcpEndpoint(ctx: DiscoveryContext) {
  return {
    url: ctx.origin + ctx.mcp.path,
    transport: 'streamable-http',
    payment:
      'x402 MCP transport: PaymentPayload in _meta["x402/payment"], settlement in _meta["x402/payment-response"]',
    tools: ctx.mcp.tools.map((t) => ({
      name: t.name,
      path: t.path,
      price_usd: t.priceUsd,
      ...(t.per === undefined ? {} : { price_per: t.per }),
    })),
  };
}

export function rootDocument(ctx: DiscoveryContext) {
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: ctx.serviceVersion,
    mode: ctx.mode,
    payment: {
      protocol: 'x402',
      x402Version: X402_VERSION,
      scheme: 'exact',
      network: ADVERTISED_NETWORK,
      asset: USDC_MINT,
      payTo: ctx.payTo,
    },
    endpoints: PAID_ENDPOINTS.map((e) => ({
      method: e.method,
      path: e.path,
      ...priceFields(e, ctx.discountPercent),
      description: e.description,
      assesses: e.assesses,
    })),
    links: links(ctx),
  };
}

export function x402DiscoveryDocument(ctx: DiscoveryContext) {
  return {
    x402Version: X402_VERSION,
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    scheme: 'exact',
    network: ADVERTISED_NETWORK,
    // Other names the same chain goes by, so clients of every x402 stack recognise it.
    networkAliases: ['solana', 'solana-mainnet-beta', SOLANA_MAINNET_CAIP2],
    asset: { address: USDC_MINT, symbol: 'USDC', decimals: USDC_DECIMALS },
    payTo: ctx.payTo,
    facilitators: [...ctx.facilitatorIds],
    feePayer: ctx.feePayer,
    headers: {
      payment: ['X-PAYMENT', 'PAYMENT-SIGNATURE'],
      paymentRequired: 'PAYMENT-REQUIRED',
      paymentResponse: ['X-PAYMENT-RESPONSE', 'PAYMENT-RESPONSE'],
    },
    // The contract's five, exactly as they were; a POST names its body instead of a parameter.
    resources: PAID_ENDPOINTS.map((e) => ({
      resource: ctx.origin + e.path,
      method: e.method,
      path: e.path,
      ...(e.method === 'GET'
        ? {
            parameter: {
              name: e.param.name,
              in: 'path',
              kind: e.param.kind,
              description: e.param.description,
            },
          }
        : { body: { contentType: 'application/json', schema: e.body.schema } }),
      ...priceFields(e, ctx.discountPercent),
      maxAmountRequired: atomicPrice(priceRange(e, ctx.discountPercent).max),
      description: e.description,
      mimeType: 'application/json',
      cacheTtlSeconds: e.cacheTtlSeconds,
    })),
    openapi: ctx.origin + DISCOVERY_PATHS.openapi,
    // Added after the fields above, which stay as they are: where the other documents are.
    links: {
      openapi: ctx.origin + DISCOVERY_PATHS.openapi,
      x402_manifest: ctx.origin + DISCOVERY_PATHS.x402Manifest,
      agent_card: ctx.origin + DISCOVERY_PATHS.agentCard,
      llms_txt: ctx.origin + DISCOVERY_PATHS.llmsTxt,
      signing_keys: ctx.origin + DISCOVERY_PATHS.signingKeys,
    },
    mcp: mcpEndpoint(ctx),
    risk_decision: publishedDecisionTable(),
  };
}

export function aiPluginDocument(ctx: DiscoveryContext) {
  return {
    schema_version: 'v1',
    name_for_human: SERVICE_NAME,
    name_for_model: 'solana_risk_scan',
    description_for_human:
      'Risk scores for Solana tokens, pump.fun launches, wallets, transactions and programs.',
    description_for_model: `${SERVICE_DESCRIPTION} Each paid call answers 402 with an x402 offer first; pay it and repeat the request. Prices: ${PAID_ENDPOINTS.map((e) => `${e.path} ${endpointPrice(e, ctx.discountPercent)}`).join(', ')}.`,
    auth: { type: 'none' },
    api: { type: 'openapi', url: ctx.origin + DISCOVERY_PATHS.openapi, is_user_authenticated: false },
  };
}

/** The decision buckets as llms.txt lists them: '- `caution`: risk_score 0.2 to below 0.5 (moderate risk: …)'. */
function decisionLines(): string[] {
  return DECISION_TABLE.map((b, i) => {
    const next = DECISION_TABLE[i + 1];
    const range = next === undefined ? `${b.min_score} to 1` : `${b.min_score} to below ${next.min_score}`;
    return `- \`${b.decision}\`: risk_score ${range} (${b.level}: ${b.advice}).`;
  });
}

function endpointLines(ctx: DiscoveryContext): string[] {
  return PAID_ENDPOINTS.map(
    (e) =>
      `- [${e.method} ${e.path}](${ctx.origin}${e.path}): ${priceText(e, ctx.discountPercent)} — ${e.description}`,
  );
}

export function llmsTxt(ctx: DiscoveryContext): string {
  return [
    `# ${SERVICE_NAME}`,
    '',
    `> ${SERVICE_DESCRIPTION}`,
    '',
    'Every paid GET takes one path parameter (a base58 address, or a transaction signature for /verify/tx); /simulate/tx takes, by POST, a JSON body {"transaction": "<base64 wire transaction>"}. Each returns a JSON ScanResult: risk_score (0–1), flags, confidence (0–1), summary, recommendation, reasoning and evidence.',
    '',
    '/scan/batch takes, by POST, {"kind": "token" | "pumpfun" | "wallet", "subjects": [1 to 25 addresses]} and returns one ScanResult per subject in the order sent (results[i] answers subjects[i]), each what the single scan answers; it costs the sum of the distinct subjects\' single prices, paid once, and is delivered whole or not at all (a 500 charges nothing).',
    '',
    '## Paid endpoints',
    '',
    ...endpointLines(ctx),
    '',
    '## Decision',
    '',
    `Every paid result carries \`${DECISION_FIELD}\`, the bucket its recommendation is worded from, by risk_score (the same table is \`x-risk-decision\` in /openapi.json):`,
    ...decisionLines(),
    '',
    '## How to pay',
    '',
    `- Protocol: x402 version ${X402_VERSION}, scheme exact, network ${ADVERTISED_NETWORK} (also known as solana and ${SOLANA_MAINNET_CAIP2}), asset USDC ${USDC_MINT}.`,
    '- Call the endpoint without payment: the 402 answer carries the offer in its body (x402 v1) and in the PAYMENT-REQUIRED header (x402 v2).',
    '- Repeat the call with the X-PAYMENT (v1) or PAYMENT-SIGNATURE (v2) header. A malformed parameter is answered 400 before any payment.',
    '- A payment is only settled when the result is delivered; a failed scan is a 500 and costs nothing.',
    '',
    '## Signed results',
    '',
    `- Every paid 200 carries \`X-Signature: ed25519 keyid=<kid>; sig=<base64>\`: the Ed25519 signature of the body's exact bytes, with the key of that \`kid\` in [the service's JWKS](${ctx.origin}${DISCOVERY_PATHS.signingKeys}) (OKP, Ed25519). Over MCP it is in _meta["risk-scan/signature"] ({alg, keyid, sig}) and signs content[0].text.`,
    '',
    '## MCP',
    '',
    `- [MCP server](${ctx.origin}${ctx.mcp.path}): POST, Streamable HTTP. One tool per paid endpoint (${paidTools(ctx)}) and the free ${freeTools(ctx)}.`,
    '- A tool called without payment answers the x402 PaymentRequired (isError, structuredContent); call it again with the PaymentPayload in _meta["x402/payment"]. The settlement comes back in _meta["x402/payment-response"].',
    '- Hosts that cannot pay run `npx risk-scan mcp --keypair FILE --max-usd N`, a local MCP server (stdio) that pays each call from the keypair.',
    '',
    '## Discovery',
    '',
    `- [OpenAPI 3.1](${ctx.origin}${DISCOVERY_PATHS.openapi})`,
    `- [x402 discovery](${ctx.origin}${DISCOVERY_PATHS.x402Discovery})`,
    `- [x402 well-known manifest](${ctx.origin}${DISCOVERY_PATHS.x402Manifest})`,
    `- [A2A agent card](${ctx.origin}${DISCOVERY_PATHS.agentCard})`,
    `- [Plugin manifest](${ctx.origin}${DISCOVERY_PATHS.aiPlugin})`,
    `- [Interactive reference](${ctx.origin}${DISCOVERY_PATHS.docs})`,
    `- [Health](${ctx.origin}${DISCOVERY_PATHS.health})`,
    `- [Signing keys (JWKS)](${ctx.origin}${DISCOVERY_PATHS.signingKeys})`,
    '',
  ].join('\n');
}

export function aiTxt(ctx: DiscoveryContext): string {
  return [
    `# ${SERVICE_NAME} — for AI agents`,
    '',
    SERVICE_DESCRIPTION,
    '',
    'Agents may call every endpoint. Paid endpoints cost, per call:',
    ...PAID_ENDPOINTS.map(
      (e) => `  ${e.method} ${ctx.origin}${e.path}  ${endpointPrice(e, ctx.discountPercent)}`,
    ),
    '',
    `Payment: x402 v${X402_VERSION}, USDC on Solana mainnet, paid to ${ctx.payTo}. No API keys, no accounts, no rate limit.`,
    `Machine-readable: ${ctx.origin}${DISCOVERY_PATHS.openapi} and ${ctx.origin}${DISCOVERY_PATHS.x402Discovery}`,
    `Index: ${ctx.origin}${DISCOVERY_PATHS.llmsTxt}`,
    '',
  ].join('\n');
}

export function robotsTxt(): string {
  return 'User-agent: *\nAllow: /\n';
}
