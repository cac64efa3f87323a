/**
 * Environment → typed, frozen configuration, validated once at start-up. No other module
 * reads process.env; a bad value stops the process with a message a person can act on.
 */
import { z } from 'zod';
import { base58Problem } from './solana/base58.js';

/** Keyless mainnet facilitators with Solana support (see the README for the choice). */
export const DEFAULT_FACILITATOR_URLS = ['https://facilitator.payai.network', 'https://x402.dexter.cash'];
export const DEFAULT_MAINNET_RPC_URL = 'https://api.mainnet-beta.solana.com';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), 'must be an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));

const urlList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(httpUrl).min(1, 'must list at least one URL'));

const address = z
  .string()
  .trim()
  .refine((v) => base58Problem(v, 32) === null, 'must be a base58 Solana address (32 bytes)');

const int = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const EnvSchema = z.object({
  RISK_SCAN_MODE: z.enum(['sandbox', 'mainnet']).optional(),
  PORT: int(0, 65535).default(8402),
  HOST: z.string().trim().min(1).optional(),
  PUBLIC_BASE_URL: httpUrl.optional(),
  PAY_TO: address.optional(),
  SOLANA_RPC_URL: httpUrl.optional(),
  SOLANA_RPC_URLS: urlList.optional(),
  FACILITATOR_URLS: urlList.optional(),
  FACILITATOR_TIMEOUT_MS: int(100, 120_000).default(10_000),
  SUPPORTED_REFRESH_SECONDS: int(5, 86_400).default(300),
  MAX_TIMEOUT_SECONDS: int(10, 600).default(60),
  RPC_TIMEOUT_MS: int(100, 120_000).default(8_000),
  SCAN_TIMEOUT_MS: int(500, 120_000).default(20_000),
  SETTLE_TIMEOUT_MS: int(1_000, 180_000).default(45_000),
  CONFIRM_WINDOW_MS: int(0, 120_000).default(10_000),
  PARALLEL_VERIFY: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SANDBOX_RPC_PORT: int(0, 65535).default(8899),
  SANDBOX_FACILITATOR_PORT: int(0, 65535).default(8404),
  SANDBOX_DIR: z.string().trim().min(1).default('.sandbox'),
  SANDBOX_SLOT_MS: int(10, 10_000).default(400),
});

export type Mode = 'sandbox' | 'mainnet';

export interface Config {
  readonly mode: Mode;
  readonly port: number;
  readonly host: string;
  /** Absolute origin used in `resource` URLs and discovery links; null = the request's own origin. */
  readonly publicBaseUrl: string | null;
  /** Wallet (owner) that receives payments; its USDC associated token account must exist. */
  readonly payTo: string | null;
  readonly rpcUrls: readonly string[];
  readonly facilitatorUrls: readonly string[];
  readonly facilitatorTimeoutMs: number;
  readonly supportedRefreshMs: number;
  readonly maxTimeoutSeconds: number;
  readonly rpcTimeoutMs: number;
  /** Longest a scan may take; past it the call is a 500 and nothing is settled. */
  readonly scanTimeoutMs: number;
  /** Timeout of the facilitator's settle call (it waits for confirmation). */
  readonly settleTimeoutMs: number;
  /** How long an ambiguous settlement is watched on chain before the caller is told to retry. */
  readonly confirmWindowMs: number;
  /** Scan while the facilitator verifies. */
  readonly parallelVerify: boolean;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly sandbox: {
    /** Port of the simulated chain's JSON-RPC + WebSocket endpoint. */
    readonly rpcPort: number;
    /** Port of the first local facilitator; the second listens on the next port. */
    readonly facilitatorPort: number;
    /** Where payer.json and sandbox.json are written. */
    readonly dir: string;
    readonly slotMs: number;
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function describeIssues(error: z.ZodError, env: Record<string, string | undefined>): string {
  const lines = error.issues.map((issue) => {
    const key = String(issue.path[0] ?? 'configuration');
    const got = env[key];
    return `  ${key} ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
  });
  return `Invalid configuration:\n${lines.join('\n')}`;
}

/** Parses the environment once. Throws ConfigError with every problem listed. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings count as unset, as shells and .env files often leave them.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, cleaned));
  const e = parsed.data;
  const mode: Mode = e.RISK_SCAN_MODE ?? (e.PAY_TO === undefined ? 'sandbox' : 'mainnet');
  if (mode === 'mainnet' && e.PAY_TO === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  PAY_TO is required in mainnet mode: the wallet that receives USDC payments',
    );
  }
  const rpcUrls = [...(e.SOLANA_RPC_URL ? [e.SOLANA_RPC_URL] : []), ...(e.SOLANA_RPC_URLS ?? [])];
  return Object.freeze({
    mode,
    port: e.PORT,
    host: e.HOST ?? (mode === 'sandbox' ? '127.0.0.1' : '0.0.0.0'),
    publicBaseUrl: e.PUBLIC_BASE_URL ?? null,
    payTo: e.PAY_TO ?? null,
    rpcUrls: Object.freeze(rpcUrls.length > 0 ? [...new Set(rpcUrls)] : [DEFAULT_MAINNET_RPC_URL]),
    facilitatorUrls: Object.freeze(e.FACILITATOR_URLS ?? DEFAULT_FACILITATOR_URLS),
    facilitatorTimeoutMs: e.FACILITATOR_TIMEOUT_MS,
    supportedRefreshMs: e.SUPPORTED_REFRESH_SECONDS * 1000,
    maxTimeoutSeconds: e.MAX_TIMEOUT_SECONDS,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    scanTimeoutMs: e.SCAN_TIMEOUT_MS,
    settleTimeoutMs: e.SETTLE_TIMEOUT_MS,
    confirmWindowMs: e.CONFIRM_WINDOW_MS,
    parallelVerify: e.PARALLEL_VERIFY === 'true',
    logLevel: e.LOG_LEVEL,
    sandbox: Object.freeze({
      rpcPort: e.SANDBOX_RPC_PORT,
      facilitatorPort: e.SANDBOX_FACILITATOR_PORT,
      dir: e.SANDBOX_DIR,
      slotMs: e.SANDBOX_SLOT_MS,
    }),
  });
}
