/**
 * Environment → typed, frozen configuration, validated once at start-up. No other module
 * reads process.env; a bad value stops the process with a message a person can act on.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { RPC_PROFILE_NAMES, type RpcProfileName } from './rpc-profile-names.js';
import { base58Problem } from './solana/base58.js';
import { V1_NETWORK_NAMES, type V1NetworkName } from './x402/networks.js';
import {
  DEFAULT_MAX_COMPUTE_UNIT_LIMIT,
  DEFAULT_MAX_COMPUTE_UNIT_PRICE,
} from './x402/payment-transaction.js';

/** Keyless mainnet facilitators with Solana support (see the README for the choice). */
export const DEFAULT_FACILITATOR_URLS = ['https://facilitator.payai.network', 'https://x402.dexter.cash'];
export const DEFAULT_MAINNET_RPC_URL = 'https://api.mainnet-beta.solana.com';
/** Three payment-store commands at their timeout (the Redis client's), in the longest paid call. */
const STORE_COMMANDS_MS = 6_000;
/** Relative to the working directory, like the sandbox's own directory. */
export const DEFAULT_STATE_DIR = '.state';
/** Where the state can be kept: in this process's memory, on this machine's disk, on Redis. */
export const STATE_STORES = ['memory', 'disk', 'redis'] as const;
export type StateStore = (typeof STATE_STORES)[number];
/** Jupiter's verified tokens (Tokens API v2, keyless lite endpoint): refreshes the bundled registry on mainnet. */
export const DEFAULT_VERIFIED_TOKENS_URL = 'https://lite-api.jup.ag/tokens/v2/tag?query=verified';
/** How often the verified-token list is read again. */
export const VERIFIED_TOKENS_REFRESH_MS = 6 * 60 * 60_000;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), 'must be an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * A URL the service publishes (the 402's resource, discovery documents), or that paths are
 * appended to: no credentials, which would be shown to every caller, and no query or fragment,
 * which would end up in the middle of every URL built on it.
 */
const publishedUrl = (what: string) =>
  httpUrl.superRefine((v, ctx) => {
    if (!URL.canParse(v)) return;
    const url = new URL(v);
    if (url.username !== '' || url.password !== '')
      ctx.addIssue({ code: 'custom', message: `must not carry credentials: ${what}` });
    if (url.search !== '' || url.hash !== '' || /[?#]/.test(v))
      ctx.addIssue({ code: 'custom', message: `must have no query or fragment: ${what}` });
  });

/** The entries of a comma-separated list, trimmed, empty ones dropped. */
function listEntries(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const urlList = <T extends z.ZodType<string, string>>(item: T) =>
  z.string().transform(listEntries).pipe(z.array(item).min(1, 'must list at least one URL'));

/** An IP address (node's own check; IPv6 without brackets) or a host name, as `listen` takes it. */
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const listenHost = z
  .string()
  .trim()
  .refine((v) => isIP(v) !== 0 || HOST_NAME.test(v), {
    message: 'must be an IP address or a host name (e.g. 0.0.0.0, 127.0.0.1, ::)',
  });

const address = z
  .string()
  .trim()
  .refine((v) => base58Problem(v, 32) === null, 'must be a base58 Solana address (32 bytes)');

/** Decimal digits only: `0x1F90`, `1e3` or `80.0` are refused, not read as some other number. */
const int = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Requests a second a provider allows (RPC_RATE_LIMIT, or one URL's `|rps`). */
const rateLimit = int(1, 100_000);

/**
 * An RPC URL, optionally followed by `|` and the requests a second its provider allows
 * (`https://rpc.example/?api-key=…|50`); `|` cannot appear in a URL unescaped.
 */
const rpcEntry = z
  .string()
  .trim()
  .transform((v): { url: string; rate?: string | undefined } => {
    const at = v.lastIndexOf('|');
    return at < 0 ? { url: v } : { url: v.slice(0, at), rate: v.slice(at + 1) };
  })
  .pipe(z.object({ url: httpUrl, rate: rateLimit.optional() }));

const EnvSchema = z.object({
  RISK_SCAN_MODE: z.enum(['sandbox', 'mainnet']).optional(),
  PORT: int(0, 65535).default(8402),
  HOST: listenHost.optional(),
  METRICS_PORT: int(0, 65535).optional(),
  PUBLIC_BASE_URL: publishedUrl('it is the base of every URL the service publishes').optional(),
  // Published in the discovery documents (and in a mailto: link): zod's conservative address
  // check keeps out anything a document or URL would have to escape.
  CONTACT_EMAIL: z
    .string()
    .trim()
    .pipe(z.email('must be an email address (e.g. ops@example.com)'))
    .optional(),
  PAY_TO: address.optional(),
  SOLANA_RPC_URL: rpcEntry.optional(),
  SOLANA_RPC_URLS: z
    .string()
    .transform(listEntries)
    .pipe(z.array(rpcEntry).min(1, 'must list at least one URL'))
    .optional(),
  RPC_RATE_LIMIT: rateLimit.optional(),
  FACILITATOR_URLS: urlList(publishedUrl('facilitators are listed in the discovery documents')).optional(),
  FACILITATOR_TIMEOUT_MS: int(100, 120_000).default(10_000),
  SUPPORTED_REFRESH_SECONDS: int(5, 86_400).default(300),
  MAX_TIMEOUT_SECONDS: int(10, 600).default(60),
  RPC_TIMEOUT_MS: int(100, 120_000).default(8_000),
  RPC_BREAKER_FAILURES: int(0, 1_000).default(5),
  RPC_BREAKER_HALF_OPEN_MS: int(100, 600_000).default(10_000),
  MAX_INFLIGHT_PAID: int(0, 100_000).default(64),
  SHED_EVENT_LOOP_DELAY_MS: int(0, 60_000).optional(),
  SHED_RETRY_AFTER_SECONDS: int(1, 3_600).default(2),
  MAX_WATCHES: int(0, 1_000_000).default(1_000),
  MAX_WATCHES_PER_SUBJECT: int(1, 10_000).default(50),
  SCAN_TIMEOUT_MS: int(500, 120_000).default(20_000),
  SETTLE_TIMEOUT_MS: int(1_000, 180_000).default(45_000),
  CONFIRM_WINDOW_MS: int(0, 120_000).default(10_000),
  PARALLEL_VERIFY: z.enum(['true', 'false']).default('true'),
  // Floors: one micro-lamport and the official client's limit, below which no client can pay.
  // Ceilings: the @x402/svm facilitator's own price cap and the runtime's per-transaction maximum.
  PAYMENT_MAX_COMPUTE_UNIT_PRICE: int(1, 5_000_000).default(Number(DEFAULT_MAX_COMPUTE_UNIT_PRICE)),
  PAYMENT_MAX_COMPUTE_UNIT_LIMIT: int(20_000, 1_400_000).default(DEFAULT_MAX_COMPUTE_UNIT_LIMIT),
  X402_V1_NETWORK: z
    .string()
    .trim()
    .pipe(
      z.enum(V1_NETWORK_NAMES, {
        error: `must be ${V1_NETWORK_NAMES.join(' (the default, as the contract words it) or ')} (as x402-fetch 1.x knows it); payments naming any Solana mainnet name are accepted either way`,
      }),
    )
    .default(V1_NETWORK_NAMES[0]),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  STATE_DIR: z.string().trim().min(1).optional(),
  // Where the state is kept: `memory` (lost at exit), `disk` (STATE_DIR), `redis` (REDIS_URL).
  STATE_STORE: z.enum(STATE_STORES).optional(),
  SIGNING_KEY_FILE: z.string().trim().min(1).optional(),
  PAYMENT_CLAIM_TTL_SECONDS: int(5, 3_600).default(300),
  // POST /scan/batch: the operator's discount on the sum of the single prices (whole percent).
  BATCH_DISCOUNT_PERCENT: int(0, 90).default(0),
  // POST /scan/batch: RPC calls one batch has in flight at most; 0 = no bound.
  BATCH_READS_IN_FLIGHT: int(0, 10_000).optional(),
  // Facts that cannot change (src/scans/fact-store.ts): most kept, the oldest evicted first; 0 keeps none.
  FACT_STORE_MAX_ENTRIES: int(0, 10_000_000).default(20_000),
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/[^\s]+$/.test(v), 'must be a redis:// or rediss:// URL')
    .optional(),
  // A ws(s) URL, or `none` for an RPC without WebSocket (watches are then re-scanned periodically only).
  SOLANA_WS_URL: z
    .string()
    .trim()
    .refine(
      (v) => v === 'none' || (/^wss?:\/\/[^\s/]+/.test(v) && URL.canParse(v)),
      'must be a ws(s) URL or none',
    )
    .optional(),
  WATCH_RESCAN_INTERVAL_SECONDS: int(5, 86_400).default(300),
  WATCH_RESCAN_BUDGET: int(1, 100_000).default(50),
  WATCH_DEBOUNCE_MS: int(0, 60_000).default(500),
  // A verified-token list: an http(s) URL, a file path (or file: URL), or `none` for the bundled registry alone.
  VERIFIED_TOKENS_URL: z
    .string()
    .trim()
    .refine((v) => !/^https?:/i.test(v) || URL.canParse(v), 'must be an http(s) URL, a file path or none')
    .optional(),
  SANDBOX_RPC_PORT: int(0, 65535).default(8899),
  SANDBOX_FACILITATOR_PORT: int(0, 65535).default(8404),
  SANDBOX_DIR: z.string().trim().min(1).default('.sandbox'),
  SANDBOX_SLOT_MS: int(10, 10_000).default(400),
  // Where the seeded chain's snapshot is kept between starts; `none` seeds at every start.
  SANDBOX_SNAPSHOT_DIR: z.string().trim().min(1).optional(),
  SANDBOX_RPC_PROFILE: z.string().trim().pipe(z.enum(RPC_PROFILE_NAMES)).default('ideal'),
});

export type Mode = 'sandbox' | 'mainnet';

export interface Config {
  readonly mode: Mode;
  readonly port: number;
  readonly host: string;
  /** Port of the Prometheus /metrics listener (on `host`); null = no metrics server. */
  readonly metricsPort: number | null;
  /** Absolute origin used in `resource` URLs and discovery links; null = the request's own origin. */
  readonly publicBaseUrl: string | null;
  /** The operator's address, published in /openapi.json and the agent card; null = none. */
  readonly contactEmail: string | null;
  /** Wallet (owner) that receives payments; its USDC associated token account must exist. */
  readonly payTo: string | null;
  readonly rpcUrls: readonly string[];
  readonly facilitatorUrls: readonly string[];
  readonly facilitatorTimeoutMs: number;
  readonly supportedRefreshMs: number;
  readonly maxTimeoutSeconds: number;
  readonly rpcTimeoutMs: number;
  /** Consecutive failures that open an RPC endpoint's breaker (0 = no breakers), and how long it stays open. */
  readonly rpcBreaker: { readonly failures: number; readonly halfOpenAfterMs: number };
  /**
   * The requests a second each RPC provider allows, which the RPC client shapes its calls under:
   * a URL's own (`url|rps`), else `stated` (RPC_RATE_LIMIT); null and none = no limit.
   */
  readonly rpcRateLimit: { readonly stated: number | null; readonly byUrl: Readonly<Record<string, number>> };
  /** When paid calls are refused with 503 before any payment is touched. */
  readonly shedding: {
    /** Paid calls in flight at most (0 = no limit). */
    readonly maxInflightPaid: number;
    /** Event-loop delay (p99 over the last second, ms) past which paid calls are refused (0 = off). */
    readonly eventLoopDelayMs: number;
    /** What a refused caller is told to wait. */
    readonly retryAfterSeconds: number;
  };
  /** Longest a scan may take; past it the call is a 500 and nothing is settled. */
  readonly scanTimeoutMs: number;
  /** The discount on a batch's price, in whole percent of the sum of its items' single prices. */
  readonly batchDiscountPercent: number;
  /** RPC calls one batch has in flight at most (its merged reads wait their turn); 0 = no bound. */
  readonly batchReadsInFlight: number;
  /** Timeout of the facilitator's settle call (it waits for confirmation). */
  readonly settleTimeoutMs: number;
  /** How long an ambiguous settlement is watched on chain before the caller is told to retry. */
  readonly confirmWindowMs: number;
  /**
   * The longest a paid call can take (every deadline on its path, end to end): a claim must
   * outlive it, and a shutdown waits this long at most for the calls in flight.
   */
  readonly longestPaidCallMs: number;
  /** Scan while the facilitator verifies. */
  readonly parallelVerify: boolean;
  /** Highest compute-unit price (micro-lamports per CU) a payment transaction may set. */
  readonly maxComputeUnitPrice: bigint;
  /** Highest compute-unit limit (CUs) a payment transaction may set. */
  readonly maxComputeUnitLimit: number;
  /** The network the v1 402 body names: `solana-mainnet` (the contract's) or `solana` (v1 clients'). */
  readonly v1Network: V1NetworkName;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /**
   * How long a claim outlives a request that vanished (crash, kill -9) before the payment may be
   * used again, or, if its result was kept before settling, before the chain decides.
   */
  readonly claimTtlMs: number;
  /** Where payment state is kept on this machine when there is no Redis. */
  readonly stateDir: string;
  /**
   * The Ed25519 key paid results are signed with (PKCS#8 PEM); null = generated once and kept in
   * Redis when REDIS_URL is set, else in `stateDir`. Read and checked at start.
   */
  readonly signingKeyFile: string | null;
  /** Shared payment state, result cache and single flight for several instances. */
  readonly redisUrl: string | null;
  /** Facts that cannot change, kept beside the payments (LMDB, or Redis with REDIS_URL): at most this many; 0 = none. */
  readonly factStoreMaxEntries: number;
  /**
   * Where payments, watches, the result cache and the generated signing key are kept (state/open.ts):
   * `redis` when REDIS_URL is set, else `disk` (STATE_DIR) unless STATE_STORE says `memory`.
   */
  readonly stateStore: StateStore;
  /**
   * Where the verified-token registry is refreshed from (an http(s) URL or a file), every
   * `refreshMs`; null = the bundled registry alone. The last good copy is kept in `stateDir`.
   */
  readonly verifiedTokens: { readonly source: string | null; readonly refreshMs: number };
  /** How active watches are re-assessed (src/watch/triggers). */
  readonly watch: {
    /** The RPC's WebSocket endpoint for account subscriptions; null = periodic re-scans only. */
    readonly wsUrl: string | null;
    /** Every active watch is re-scanned at least once per this many ms, within the budget. */
    readonly rescanIntervalMs: number;
    /** Re-scans the periodic check may send per interval, whatever the number of watches. */
    readonly rescanBudget: number;
    /** How long notifications on one subject are gathered before its one re-scan. */
    readonly debounceMs: number;
    /** Active watches in all; POST /watch is refused before payment (503) past it (0 = none taken). */
    readonly maxWatches: number;
    /** Active watches on one subject, refused the same way past it. */
    readonly maxWatchesPerSubject: number;
  };
  readonly sandbox: {
    /** Port of the simulated chain's JSON-RPC + WebSocket endpoint. */
    readonly rpcPort: number;
    /** Port of the first local facilitator; the second listens on the next port. */
    readonly facilitatorPort: number;
    /** Where payer.json and sandbox.json are written. */
    readonly dir: string;
    readonly slotMs: number;
    /** Where the seeded chain's snapshot is kept between starts; null seeds at every start. */
    readonly snapshotDir: string | null;
    /** Which mainnet RPC provider the simulated chain's RPC answers as (refusals, rate limits). */
    readonly rpcProfile: RpcProfileName;
  };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * A value as it may be shown in an error: URL credentials and queries (API keys often ride in
 * them) are masked, since start-up errors end up in terminals and log collectors.
 */
function redacted(value: string): string {
  return value.replace(/(\/\/)[^/@\s,]*@/g, '$1***@').replace(/\?[^\s,#]*/g, '?***');
}

function describeIssues(error: z.ZodError, env: Record<string, string | undefined>): string {
  const lines = error.issues.map((issue) => {
    const key = String(issue.path[0] ?? 'configuration');
    const got = env[key];
    // In a list, name the entry at fault rather than echo the whole list.
    const index = issue.path[1];
    let shown = got === undefined ? '' : ` (got ${JSON.stringify(redacted(got))})`;
    if (typeof index === 'number' && got !== undefined) {
      shown = ` (entry ${index + 1}: ${JSON.stringify(redacted(listEntries(got)[index] ?? ''))})`;
    }
    return `  ${key} ${issue.message}${shown}`;
  });
  return `Invalid configuration:\n${lines.join('\n')}`;
}

/**
 * The WebSocket endpoint: as set, none, or the first RPC URL with its scheme swapped (providers,
 * and the sandbox, serve both on one host and port).
 */
function webSocketUrl(setting: string | undefined, rpcUrl: string): string | null {
  if (setting === 'none') return null;
  if (setting !== undefined) return setting.replace(/\/+$/, '');
  return rpcUrl.replace(/^http/, 'ws');
}

/** Jupiter's list on mainnet unless set; the sandbox is offline unless one is set; `none` is none. */
function verifiedTokensOf(setting: string | undefined, mode: Mode): Config['verifiedTokens'] {
  const source =
    setting === 'none' ? null : (setting ?? (mode === 'mainnet' ? DEFAULT_VERIFIED_TOKENS_URL : null));
  return Object.freeze({ source, refreshMs: VERIFIED_TOKENS_REFRESH_MS });
}

type Env = z.infer<typeof EnvSchema>;

/** STATE_STORE as set, or what REDIS_URL implies; the two must agree. */
function stateStoreOf(e: Env, mode: Mode): StateStore {
  const implied: StateStore = e.REDIS_URL === undefined ? 'disk' : 'redis';
  const store = e.STATE_STORE ?? implied;
  if ((store === 'redis') !== (e.REDIS_URL !== undefined)) {
    throw new ConfigError(
      `Invalid configuration:\n  STATE_STORE=${store} ${store === 'redis' ? 'needs REDIS_URL' : 'cannot be used with REDIS_URL (the state is then on Redis): unset one of them'}`,
    );
  }
  // Real money: a restart would forget which payments were spent and lose the results paid for.
  if (store === 'memory' && mode === 'mainnet') {
    throw new ConfigError(
      'Invalid configuration:\n  STATE_STORE=memory cannot take real payments (a restart forgets which payments were spent and loses the results paid for): use disk or redis in mainnet mode',
    );
  }
  return store;
}

/** Sandbox unless told, or unless PAY_TO is set; mainnet needs the wallet that is paid. */
function modeOf(e: Env): Mode {
  const mode: Mode = e.RISK_SCAN_MODE ?? (e.PAY_TO === undefined ? 'sandbox' : 'mainnet');
  if (mode === 'mainnet' && e.PAY_TO === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  PAY_TO is required in mainnet mode: the wallet that receives USDC payments',
    );
  }
  return mode;
}

/**
 * A claim must outlive the longest paid call, or a live call could lose its claim midway:
 * a scan may first wait a whole scan deadline behind another instance's, the chain watch may
 * overrun its window by one lookup, and three store commands may take their timeout.
 */
function longestPaidCallMs(e: Env): number {
  const longestCallMs =
    2 * e.SCAN_TIMEOUT_MS +
    e.FACILITATOR_TIMEOUT_MS +
    e.SETTLE_TIMEOUT_MS +
    e.CONFIRM_WINDOW_MS +
    e.RPC_TIMEOUT_MS +
    STORE_COMMANDS_MS;
  if (e.PAYMENT_CLAIM_TTL_SECONDS * 1000 <= longestCallMs) {
    throw new ConfigError(
      `Invalid configuration:\n  PAYMENT_CLAIM_TTL_SECONDS must be longer than the longest paid call: 2 × SCAN_TIMEOUT_MS + FACILITATOR_TIMEOUT_MS + SETTLE_TIMEOUT_MS + CONFIRM_WINDOW_MS + RPC_TIMEOUT_MS + ${STORE_COMMANDS_MS} ms of store commands = ${longestCallMs} ms (got ${e.PAYMENT_CLAIM_TTL_SECONDS} s)`,
    );
  }
  return longestCallMs;
}

function watchOf(e: Env, rpcUrls: readonly string[]): Config['watch'] {
  return Object.freeze({
    wsUrl: webSocketUrl(e.SOLANA_WS_URL, rpcUrls[0] ?? DEFAULT_MAINNET_RPC_URL),
    rescanIntervalMs: e.WATCH_RESCAN_INTERVAL_SECONDS * 1000,
    rescanBudget: e.WATCH_RESCAN_BUDGET,
    debounceMs: e.WATCH_DEBOUNCE_MS,
    maxWatches: e.MAX_WATCHES,
    maxWatchesPerSubject: e.MAX_WATCHES_PER_SUBJECT,
  });
}

function sandboxOf(e: Env): Config['sandbox'] {
  return Object.freeze({
    rpcPort: e.SANDBOX_RPC_PORT,
    facilitatorPort: e.SANDBOX_FACILITATOR_PORT,
    dir: e.SANDBOX_DIR,
    slotMs: e.SANDBOX_SLOT_MS,
    snapshotDir:
      e.SANDBOX_SNAPSHOT_DIR === 'none' ? null : (e.SANDBOX_SNAPSHOT_DIR ?? join(e.SANDBOX_DIR, 'snapshots')),
    rpcProfile: e.SANDBOX_RPC_PROFILE,
  });
}

/** The stated rate for every URL, and each URL's own (the first, where a URL is listed twice). */
function rpcRateLimitOf(
  stated: number | undefined,
  entries: readonly { url: string; rate?: number | undefined }[],
): Config['rpcRateLimit'] {
  const byUrl: Record<string, number> = {};
  for (const { url, rate } of entries) if (rate !== undefined && !(url in byUrl)) byUrl[url] = rate;
  return Object.freeze({ stated: stated ?? null, byUrl: Object.freeze(byUrl) });
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
  const mode = modeOf(e);
  const longestCallMs = longestPaidCallMs(e);
  const rpcEntries = [...(e.SOLANA_RPC_URL ? [e.SOLANA_RPC_URL] : []), ...(e.SOLANA_RPC_URLS ?? [])];
  const rpcUrls = rpcEntries.map((entry) => entry.url);
  return Object.freeze({
    mode,
    port: e.PORT,
    host: e.HOST ?? (mode === 'sandbox' ? '127.0.0.1' : '0.0.0.0'),
    metricsPort: e.METRICS_PORT ?? null,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? null,
    contactEmail: e.CONTACT_EMAIL ?? null,
    payTo: e.PAY_TO ?? null,
    rpcUrls: Object.freeze(rpcUrls.length > 0 ? [...new Set(rpcUrls)] : [DEFAULT_MAINNET_RPC_URL]),
    facilitatorUrls: Object.freeze(e.FACILITATOR_URLS ?? DEFAULT_FACILITATOR_URLS),
    facilitatorTimeoutMs: e.FACILITATOR_TIMEOUT_MS,
    supportedRefreshMs: e.SUPPORTED_REFRESH_SECONDS * 1000,
    maxTimeoutSeconds: e.MAX_TIMEOUT_SECONDS,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    rpcBreaker: Object.freeze({
      failures: e.RPC_BREAKER_FAILURES,
      halfOpenAfterMs: e.RPC_BREAKER_HALF_OPEN_MS,
    }),
    rpcRateLimit: rpcRateLimitOf(e.RPC_RATE_LIMIT, rpcEntries),
    shedding: Object.freeze({
      maxInflightPaid: e.MAX_INFLIGHT_PAID,
      // The sandbox runs its chain on this event loop: the delay would measure LiteSVM, not the API.
      eventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS ?? (mode === 'sandbox' ? 0 : 500),
      retryAfterSeconds: e.SHED_RETRY_AFTER_SECONDS,
    }),
    scanTimeoutMs: e.SCAN_TIMEOUT_MS,
    batchDiscountPercent: e.BATCH_DISCOUNT_PERCENT,
    // The sandbox's RPC answers in this process one call at a time: a batch hands it a few at once.
    batchReadsInFlight: e.BATCH_READS_IN_FLIGHT ?? (mode === 'sandbox' ? 8 : 0),
    settleTimeoutMs: e.SETTLE_TIMEOUT_MS,
    confirmWindowMs: e.CONFIRM_WINDOW_MS,
    longestPaidCallMs: longestCallMs,
    parallelVerify: e.PARALLEL_VERIFY === 'true',
    maxComputeUnitPrice: BigInt(e.PAYMENT_MAX_COMPUTE_UNIT_PRICE),
    maxComputeUnitLimit: e.PAYMENT_MAX_COMPUTE_UNIT_LIMIT,
    v1Network: e.X402_V1_NETWORK,
    logLevel: e.LOG_LEVEL,
    claimTtlMs: e.PAYMENT_CLAIM_TTL_SECONDS * 1000,
    stateDir: e.STATE_DIR ?? (mode === 'sandbox' ? join(e.SANDBOX_DIR, 'state') : DEFAULT_STATE_DIR),
    signingKeyFile: e.SIGNING_KEY_FILE ?? null,
    redisUrl: e.REDIS_URL ?? null,
    stateStore: stateStoreOf(e, mode),
    factStoreMaxEntries: e.FACT_STORE_MAX_ENTRIES,
    verifiedTokens: verifiedTokensOf(e.VERIFIED_TOKENS_URL, mode),
    watch: watchOf(e, rpcUrls),
    sandbox: sandboxOf(e),
  });
}
