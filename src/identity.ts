/**
 * What the service is called, how it describes itself, and where its free documents are: the
 * names every face of it shows (discovery documents, the v2 offers' service metadata, the MCP
 * servers), kept below all of them so none has to import another for them.
 */
export const SERVICE_NAME = 'Solana Risk Scan';
export const SERVICE_DESCRIPTION =
  'Pay-per-call risk assessments of one Solana subject per call — a pump.fun token, any SPL / Token-2022 token, a wallet, a transaction or a program — for autonomous agents. Paid per call with x402 (USDC on Solana mainnet); no API keys, no accounts.';

/** Paths of the free discovery endpoints (contract §4.2). */
export const DISCOVERY_PATHS = {
  root: '/',
  health: '/health',
  openapi: '/openapi.json',
  x402Discovery: '/.well-known/x402-discovery',
  x402Manifest: '/.well-known/x402.json',
  /** The public keys paid results are signed with (JWKS). */
  signingKeys: '/.well-known/jwks.json',
  agentCard: '/.well-known/agent-card.json',
  aiPlugin: '/.well-known/ai-plugin.json',
  aiTxt: '/ai.txt',
  llmsTxt: '/llms.txt',
  robotsTxt: '/robots.txt',
  docs: '/docs',
  favicon: '/favicon.svg',
} as const;
