/** What every discovery document is generated from, besides the catalog. */
import type { Mode } from '../../config.js';

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
}

/** Paths of the free discovery endpoints (contract §4.2). */
export const DISCOVERY_PATHS = {
  root: '/',
  health: '/health',
  openapi: '/openapi.json',
  x402Discovery: '/.well-known/x402-discovery',
  aiPlugin: '/.well-known/ai-plugin.json',
  aiTxt: '/ai.txt',
  llmsTxt: '/llms.txt',
  robotsTxt: '/robots.txt',
  docs: '/docs',
  favicon: '/favicon.svg',
} as const;
