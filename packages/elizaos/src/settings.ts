/**
 * The plugin's settings, read from the runtime (character settings and secrets, then the
 * environment): the API, the pinned payee, the budget, and the payer the Solana plugin uses.
 */

import { getBase58Encoder } from '@solana/kit';
import { type RiskScanClientOptions, signerFromSecretKey } from '@solana-risk-scan/client';
import type { AgentRuntime } from './eliza-types.js';

/** The setting names, as a character's `settings` / `secrets` or the environment give them. */
export const SETTINGS = {
  apiUrl: 'RISK_SCAN_API_URL',
  payTo: 'RISK_SCAN_PAY_TO',
  budgetUsd: 'RISK_SCAN_BUDGET_USD',
  maxPerCallUsd: 'RISK_SCAN_MAX_PER_CALL_USD',
  /** elizaOS's Solana plugin's key: a 64-byte secret key, base58 (or base64). */
  privateKey: 'SOLANA_PRIVATE_KEY',
  /** elizaOS's Solana plugin's RPC. */
  rpcUrl: 'SOLANA_RPC_URL',
} as const;

/** What the Solana plugin uses when SOLANA_RPC_URL is not set. */
const MAINNET_RPC = 'https://api.mainnet-beta.solana.com';

const text = (runtime: AgentRuntime, key: string) => {
  const value = runtime.getSetting(key);
  return value === null || value === undefined || value === '' ? undefined : String(value);
};

function required(runtime: AgentRuntime, key: string): string {
  const value = text(runtime, key);
  if (value === undefined) throw new Error(`risk-scan: the setting ${key} is missing`);
  return value;
}

function usd(runtime: AgentRuntime, key: string): number | undefined {
  const value = text(runtime, key);
  if (value === undefined) return undefined;
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0) throw new Error(`risk-scan: ${key} must be an amount in USD`);
  return amount;
}

/** The 64-byte secret key as the Solana plugin reads it: base58 first, then base64. */
function secretKey(encoded: string): Uint8Array {
  const fromBase58 = (() => {
    try {
      return new Uint8Array(getBase58Encoder().encode(encoded));
    } catch {
      return undefined;
    }
  })();
  const bytes = fromBase58?.length === 64 ? fromBase58 : new Uint8Array(Buffer.from(encoded, 'base64'));
  if (bytes.length !== 64) {
    throw new Error(`risk-scan: ${SETTINGS.privateKey} must be a 64-byte secret key, base58 or base64`);
  }
  return bytes;
}

export async function clientOptionsFrom(runtime: AgentRuntime): Promise<RiskScanClientOptions> {
  const budgetUsd = usd(runtime, SETTINGS.budgetUsd);
  const maxPerCallUsd = usd(runtime, SETTINGS.maxPerCallUsd);
  return {
    apiUrl: required(runtime, SETTINGS.apiUrl),
    payTo: required(runtime, SETTINGS.payTo),
    rpcUrl: text(runtime, SETTINGS.rpcUrl) ?? MAINNET_RPC,
    signer: await signerFromSecretKey(secretKey(required(runtime, SETTINGS.privateKey))),
    ...(budgetUsd === undefined ? {} : { budgetUsd }),
    ...(maxPerCallUsd === undefined ? {} : { maxPerCallUsd }),
  };
}
