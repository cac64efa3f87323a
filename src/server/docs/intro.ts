/**
 * The top of /docs, what a builder reads first: the service's name, what it is, how to pay it,
 * then every way in (HTTP with an x402 client, the client package, the framework plugins, the
 * v1 clients, MCP), above the HTTP reference. Text with `code` spans, rendered by page.ts.
 */
import { PAID_ENDPOINTS, priceText } from '../../catalog.js';
import { DECISION_FIELD, DECISIONS } from '../../contract/decision.js';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../../identity.js';
import type { V1NetworkName } from '../../x402/networks.js';

export interface DocsWayIn {
  readonly name: string;
  readonly text: string;
}

export interface DocsIntro {
  readonly name: string;
  /** What the service is, in one line. */
  readonly what: string;
  /** How to pay, a paragraph each. */
  readonly paying: readonly string[];
  /** Each paid endpoint with its price. */
  readonly prices: readonly string[];
  /** The ways in other than MCP, which has a section of its own beside them. */
  readonly waysIn: readonly DocsWayIn[];
}

const PACKAGE_SCOPE = '@solana-risk-scan';
const PLUGINS = ['solana-agent-kit', 'goat', 'elizaos', 'ai-sdk'] as const;

/** What a v1 client (x402-fetch 1.x) can do against this service, given its X402_V1_NETWORK. */
function v1Clients(v1Network: V1NetworkName): string {
  const how =
    v1Network === 'solana'
      ? "This service names it `solana`, so they pay (with `X-PAYMENT`); raise `x402-fetch`'s price cap `maxValue` above its default 0.10 USDC for `/scan/token`, `/scan/pumpfun`, `/scan/program` and a watch of more than 10 hours."
      : 'This service names it `solana-mainnet`, as the contract words it, and they refuse that before paying: its operator sets `X402_V1_NETWORK=solana` to serve them.';
  return `\`x402-fetch\` 1.x knows Solana mainnet only as \`solana\` in the v1 offer. ${how}`;
}

export function docsIntro(v1Network: V1NetworkName, discountPercent = 0): DocsIntro {
  return {
    name: SERVICE_NAME,
    what: SERVICE_DESCRIPTION,
    paying: [
      'Call a paid endpoint without payment: it answers `402` with the x402 offer (USDC on Solana mainnet, scheme `exact`), in the body for x402 v1 and in the `PAYMENT-REQUIRED` header for x402 v2. Pay it with an x402 client and repeat the same call with `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2): the `200` is the result, signed (`X-Signature`), with the settlement receipt.',
      'A malformed parameter is a `400` before any payment; a failed scan is a `500` and costs nothing; one payment buys one result. "Try it out" on an operation below shows its offer.',
      `Every result carries \`${DECISION_FIELD}\` (${DECISIONS.map((d) => `\`${d}\``).join(', ')}), the bucket of its \`risk_score\`; the thresholds are \`x-risk-decision\` in \`/openapi.json\`.`,
    ],
    prices: PAID_ENDPOINTS.map((e) => `\`${e.method} ${e.path}\` — ${priceText(e, discountPercent)}`),
    waysIn: [
      {
        name: 'HTTP, with an x402 client',
        text: 'The official `@x402/fetch` 2.x with `@x402/svm`, or faremeter, pays every endpoint through the v2 header; the reference below lists them.',
      },
      {
        name: 'The client package',
        text: `\`${PACKAGE_SCOPE}/client\`: typed calls for every paid endpoint, paying through the official x402 libraries, with a pinned payee, a budget and verified signatures.`,
      },
      {
        name: 'Framework plugins',
        text: `${PLUGINS.map((p) => `\`${PACKAGE_SCOPE}/${p}\``).join(', ')}: the scans as the framework's own actions or tools.`,
      },
      { name: 'v1 clients', text: v1Clients(v1Network) },
    ],
  };
}
