/**
 * Provider profiles: the sandbox RPC answering as real mainnet RPC providers do, so that code
 * relying on what only an ideal node serves fails here as it would on mainnet. Each profile is
 * data (which calls are refused, with which answer; the rate limit); `ProfileGate` applies it
 * before dispatch. The answers are the providers' own, recorded in fixtures/providers (see
 * PROVENANCE.md there for the sources and for what could not be found).
 */

import { RPC_PROFILE_NAMES, type RpcProfileName } from '../../rpc-profile-names.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM } from '../../solana/programs.js';
import { TokenBucket } from '../../solana/rate-shaper.js';
import { addressText, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import { isTokenProgram } from '../chain/token-accounts.js';
import { RpcError } from './errors.js';

export { RPC_PROFILE_NAMES, type RpcProfileName };

/** Serum DEX v3: the program the public endpoint's 410 answer was recorded for. */
export const SERUM_DEX_V3_PROGRAM = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

/**
 * Programs with more than 10 million accounts on mainnet, which providers refuse to scan
 * whatever the filters (chainstacklabs/pumpfun-bonkfun-bot#178 for pump.fun).
 */
export const LARGE_PROGRAMS: readonly string[] = [
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  TOKEN_PROGRAM,
  TOKEN_2022_PROGRAM,
  SYSTEM_PROGRAM,
];

/** What a refused call gets. `http` answers replace the whole HTTP response, as a proxy in front of the node does. */
export type ProfileAnswer =
  | { readonly kind: 'json-rpc'; readonly code: number; readonly message: string }
  | { readonly kind: 'http'; readonly status: number; readonly code: number; readonly message: string };

/**
 * Which calls a rule refuses: every call of the methods, or those whose key (the program
 * scanned, resolved from the params) is in `keys`. `{key}` in the answer's message is that key.
 */
export interface ProfileRule {
  readonly methods: readonly string[];
  readonly keys: 'any' | readonly string[];
  readonly answer: ProfileAnswer;
}

export interface RateLimit {
  readonly windowMs: number;
  /** Calls per window per client IP, all methods together. */
  readonly perIp: number;
  /** Calls per window per client IP and method. */
  readonly perMethod: number;
  /** Body messages of the 429 (code 429), per limit hit. */
  readonly perIpMessage: string;
  readonly perMethodMessage: string;
}

/**
 * A paid plan's limit: requests a second per client (per API key at the provider; per client IP
 * here), counted by a token bucket that starts full and holds `burst` at most. Each call of a
 * batch takes a token.
 */
export interface BucketLimit {
  readonly perSecond: number;
  readonly burst: number;
  /** The 429's body error. */
  readonly code: number;
  readonly message: string;
}

export interface RpcProfile {
  readonly name: RpcProfileName;
  /** Checked in order; the first rule that matches answers. */
  readonly rules: readonly ProfileRule[];
  readonly rateLimit: RateLimit | null;
  /** A paid plan's requests a second, counted as a token bucket; none when absent. */
  readonly bucket?: BucketLimit;
}

/** agave's RpcCustomError::KeyExcludedFromSecondaryIndex (JSON_RPC_SERVER_ERROR_KEY_EXCLUDED_FROM_SECONDARY_INDEX). */
export const KEY_EXCLUDED_FROM_SECONDARY_INDEX: ProfileAnswer = {
  kind: 'json-rpc',
  code: -32010,
  message: '{key} excluded from account secondary indexes; this RPC method unavailable for key',
};

/** The public endpoint's proxy refusing a scan of a large program (HTTP 410 Gone). */
export const CALL_DISABLED: ProfileAnswer = {
  kind: 'http',
  status: 410,
  code: 410,
  message: 'The RPC call or parameters have been disabled.',
};

/** Helius, Alchemy and dRPC on a program over their 10-million-account limit, before filters apply. */
export const TOO_MANY_ACCOUNTS: ProfileAnswer = {
  kind: 'json-rpc',
  code: -32600,
  message:
    'Too many accounts requested (10000001 pubkeys), Please use getProgramAccountsV2 with pagination to handle large datasets.',
};

/** api.mainnet-beta.solana.com's published limits and its 429 bodies. */
export const PUBLIC_MAINNET_RATE_LIMIT: RateLimit = {
  windowMs: 10_000,
  perIp: 100,
  perMethod: 40,
  perIpMessage: 'Too many requests from your IP, contact your app developer or support@rpcpool.com.',
  perMethodMessage:
    'Too many requests for a specific RPC call, please contact your app developer to further troubleshoot. If you are using an open endpoint, please consider signing up for your own subscription to avoid getting rate limited, you can find some suitable options at https://solana.com/rpc.',
};

/**
 * Helius's Developer plan: 50 RPC requests a second; past it HTTP 429 with the JSON-RPC error
 * -32429 "rate limited", no Retry-After (fixtures/providers/paid-plan-*).
 */
export const PAID_PLAN_RATE_LIMIT: BucketLimit = {
  perSecond: 50,
  burst: 50,
  code: -32429,
  message: 'rate limited',
};

const EXCLUDED_TOKEN_PROGRAMS = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];

export const RPC_PROFILES: Readonly<Record<RpcProfileName, RpcProfile>> = {
  ideal: { name: 'ideal', rules: [], rateLimit: null },
  'public-mainnet': {
    name: 'public-mainnet',
    rules: [
      // The token programs are excluded from the program-id index, and there is no mint index:
      // whatever scans a token program by program id is refused, naming the program.
      {
        methods: ['getProgramAccounts', 'getTokenLargestAccounts', 'getTokenAccountsByDelegate'],
        keys: EXCLUDED_TOKEN_PROGRAMS,
        answer: KEY_EXCLUDED_FROM_SECONDARY_INDEX,
      },
      {
        methods: ['getProgramAccounts'],
        keys: [...LARGE_PROGRAMS, SERUM_DEX_V3_PROGRAM],
        answer: CALL_DISABLED,
      },
    ],
    rateLimit: PUBLIC_MAINNET_RATE_LIMIT,
  },
  'indexed-provider': {
    name: 'indexed-provider',
    rules: [{ methods: ['getProgramAccounts'], keys: LARGE_PROGRAMS, answer: TOO_MANY_ACCOUNTS }],
    rateLimit: null,
  },
  // A paid provider plan: every call served (as `ideal`), at most 50 a second.
  'paid-plan': { name: 'paid-plan', rules: [], rateLimit: null, bucket: PAID_PLAN_RATE_LIMIT },
};

export interface RpcProfileOptions {
  readonly name: RpcProfileName;
  /** Replaces the profile's limits (tests hit them with a few calls); null turns rate limiting off, the bucket's too. */
  readonly rateLimit?: Partial<RateLimit> | null;
  /** Milliseconds clock of the rate limiter (default Date.now). */
  readonly now?: () => number;
}

/** A call as the gate sees it: only what a provider looks at before dispatch. */
export interface GateCall {
  readonly method: string;
  readonly params: unknown;
}

export interface HttpRefusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly error: { readonly code: number; readonly message: string };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The owning program of `address` if it is a token program's account, else undefined. */
function tokenProgramOf(chain: SandboxChain, address: unknown): string | undefined {
  if (typeof address !== 'string') return undefined;
  try {
    const account = chain.getAccount(address);
    const owner = account ? addressText(account.owner()) : undefined;
    return owner && isTokenProgram(owner) ? owner : undefined;
  } catch {
    return undefined; // not an address: the method's own validation answers
  }
}

/** The program a call scans by program id, as agave resolves it; undefined when the call scans none. */
function scannedProgram(chain: SandboxChain, call: GateCall): string | undefined {
  const params = Array.isArray(call.params) ? call.params : [];
  switch (call.method) {
    case 'getProgramAccounts':
      return typeof params[0] === 'string' ? params[0] : undefined;
    case 'getTokenLargestAccounts':
      return tokenProgramOf(chain, params[0]);
    case 'getTokenAccountsByDelegate': {
      const filter = record(params[1]);
      if (!filter) return undefined;
      if (typeof filter.programId === 'string')
        return isTokenProgram(filter.programId) ? filter.programId : undefined;
      return tokenProgramOf(chain, filter.mint);
    }
    default:
      return undefined;
  }
}

/**
 * Applies a profile: `admit` before a body is dispatched (rate limit, and refusals answered at
 * the HTTP level), `refuse` before each call of it is (refusals answered as JSON-RPC errors).
 */
export class ProfileGate {
  readonly profile: RpcProfile;
  private readonly rateLimit: RateLimit | null;
  private readonly now: () => number;
  /** Admission times per client IP, and per client IP and method; oldest first. */
  private readonly calls = new Map<string, number[]>();
  private readonly bucket: BucketLimit | null;
  /** The paid plan's bucket of each client IP. */
  private readonly buckets = new Map<string, TokenBucket>();
  /** Bodies answered 429 for a rate limit, since the start. */
  rateLimited = 0;

  constructor(
    private readonly chain: SandboxChain,
    options: RpcProfileName | RpcProfileOptions = 'ideal',
  ) {
    const { name, rateLimit, now } = typeof options === 'string' ? { name: options } : options;
    this.profile = RPC_PROFILES[name];
    const base = this.profile.rateLimit ?? PUBLIC_MAINNET_RATE_LIMIT;
    this.rateLimit =
      rateLimit === null
        ? null
        : rateLimit === undefined
          ? this.profile.rateLimit
          : { ...base, ...rateLimit };
    const plan = this.profile.bucket;
    this.bucket = rateLimit === null || plan === undefined ? null : plan;
    this.now = now ?? Date.now;
  }

  private match(call: GateCall): { answer: ProfileAnswer; key: string } | undefined {
    for (const rule of this.profile.rules) {
      if (!rule.methods.includes(call.method)) continue;
      if (rule.keys === 'any') return { answer: rule.answer, key: '' };
      const key = scannedProgram(this.chain, call);
      if (key !== undefined && rule.keys.includes(key)) return { answer: rule.answer, key };
    }
    return undefined;
  }

  /** The JSON-RPC error a call gets instead of being dispatched, if the profile refuses it. */
  refuse(call: GateCall): RpcError | undefined {
    const hit = this.match(call);
    if (hit?.answer.kind !== 'json-rpc') return undefined;
    return new RpcError(hit.answer.code, hit.answer.message.replace('{key}', hit.key));
  }

  /**
   * The HTTP answer replacing the whole response to a body from `clientIp` holding `calls`
   * (each call of a batch counts), or null to serve it. Refused bodies use no quota.
   */
  admit(clientIp: string, calls: readonly GateCall[]): HttpRefusal | null {
    for (const call of calls) {
      const hit = this.match(call);
      if (hit?.answer.kind === 'http') {
        const { status, code, message } = hit.answer;
        return { status, headers: {}, error: { code, message: message.replace('{key}', hit.key) } };
      }
    }
    const refusal =
      (this.rateLimit ? this.limit(this.rateLimit, clientIp, calls) : null) ??
      (this.bucket ? this.limitByBucket(this.bucket, clientIp, calls.length) : null);
    if (refusal?.status === 429) this.rateLimited += 1;
    return refusal;
  }

  /** The paid plan's 429 when the client's bucket holds fewer tokens than the body has calls. */
  private limitByBucket(limit: BucketLimit, clientIp: string, count: number): HttpRefusal | null {
    let bucket = this.buckets.get(clientIp);
    if (bucket === undefined) {
      bucket = new TokenBucket(limit.perSecond, limit.burst, this.now);
      this.buckets.set(clientIp, bucket);
    }
    if (bucket.take(count)) return null;
    return { status: 429, headers: {}, error: { code: limit.code, message: limit.message } };
  }

  private limit(limit: RateLimit, clientIp: string, calls: readonly GateCall[]): HttpRefusal | null {
    const now = this.now();
    const since = now - limit.windowMs;
    const recent = (key: string): number[] => {
      const times = (this.calls.get(key) ?? []).filter((t) => t > since);
      this.calls.set(key, times);
      return times;
    };
    /** Milliseconds until `times` has room for `more` calls under `max`. */
    const wait = (times: number[], more: number, max: number): number => {
      const excess = times.length + more - max;
      if (excess <= 0) return 0;
      const freeing = times[excess - 1];
      return freeing === undefined ? limit.windowMs : freeing + limit.windowMs - now;
    };
    const perMethod = new Map<string, number>();
    for (const call of calls) perMethod.set(call.method, (perMethod.get(call.method) ?? 0) + 1);

    const ipKey = `ip ${clientIp}`;
    let waitMs = wait(recent(ipKey), calls.length, limit.perIp);
    let message = limit.perIpMessage;
    if (waitMs === 0) {
      for (const [method, count] of perMethod) {
        const methodWait = wait(recent(`${ipKey} ${method}`), count, limit.perMethod);
        if (methodWait > waitMs) {
          waitMs = methodWait;
          message = limit.perMethodMessage;
        }
      }
    }
    if (waitMs > 0) {
      return {
        status: 429,
        headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
        error: { code: 429, message },
      };
    }
    for (const call of calls) {
      this.calls.get(ipKey)!.push(now);
      const key = `${ipKey} ${call.method}`;
      const times = this.calls.get(key) ?? [];
      times.push(now);
      this.calls.set(key, times);
    }
    return null;
  }
}

/** The calls of a parsed JSON-RPC body, as the gate counts them: one per batch entry. */
export function callsOf(body: unknown): GateCall[] {
  const entries = Array.isArray(body) ? body : [body];
  return entries.map((entry) => {
    const r = record(entry);
    return { method: typeof r?.method === 'string' ? r.method : '', params: r?.params };
  });
}
