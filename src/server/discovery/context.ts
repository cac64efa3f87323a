/** What every discovery document is generated from, besides the catalog. */
import type { Mode } from '../../config.js';
import type { ServiceMetadata } from '../../x402/bazaar.js';

export const SERVICE_NAME = 'Solana Risk Scan';
export const SERVICE_DESCRIPTION =
  'Pay-per-call risk assessments of one Solana subject per call — a pump.fun token, any SPL / Token-2022 token, a wallet, a transaction or a program — for autonomous agents. Paid per call with x402 (USDC on Solana mainnet); no API keys, no accounts.';

export interface DiscoveryContext {
  /** Absolute origin, no trailing slash. */
  readonly origin: string;
  readonly mode: Mode;
  readonly payTo: string;
  readonly facilitatorIds: readonly string[];
  /** Fee payer of the facilitator currently advertised, if any. */
  readonly feePayer: string | null;
  readonly serviceVersion: string;
  /** How long a payment's transaction may take, as the live offers say (MAX_TIMEOUT_SECONDS). */
  readonly maxTimeoutSeconds: number;
  /** Service name, tags and icon, as the live v2 offers name them on `resource`. */
  readonly service: ServiceMetadata;
  /** CONTACT_EMAIL: the operator's address, or null when none is configured. */
  readonly contactEmail: string | null;
}

/** Paths of the free discovery endpoints (contract §4.2). */
export const DISCOVERY_PATHS = {
  root: '/',
  health: '/health',
  openapi: '/openapi.json',
  x402Discovery: '/.well-known/x402-discovery',
  x402Manifest: '/.well-known/x402.json',
  agentCard: '/.well-known/agent-card.json',
  aiPlugin: '/.well-known/ai-plugin.json',
  aiTxt: '/ai.txt',
  llmsTxt: '/llms.txt',
  robotsTxt: '/robots.txt',
  docs: '/docs',
  favicon: '/favicon.svg',
} as const;
