/**
 * What the configured RPC can do for the scanners. Providers differ: the public endpoint
 * refuses getTokenLargestAccounts (-32010, the token program is excluded from its secondary
 * indexes) and getProgramAccounts on large programs; some plans time out on the latter.
 * One cheap call per check family, in parallel, each bounded by a short timeout; any failure
 * makes the family "unavailable" with the reason, so a probe never fails or hangs a start.
 */
import { isSolanaError } from '@solana/kit';
import type { CheckResult, HealthCheck } from '../health.js';
import { PUMP_PROGRAM, TOKEN_PROGRAM, USDC_MINT } from './programs.js';
import type { SolanaRpc } from './rpc.js';

/** The scanner checks that depend on one RPC method each. */
export const CAPABILITY_FAMILIES = {
  holder_concentration: {
    method: 'getTokenLargestAccounts',
    affects: 'holder concentration (/scan/token, /scan/pumpfun)',
  },
  creator_history: {
    method: 'getTokenAccountsByOwner',
    affects: 'pump.fun creator history (/scan/pumpfun)',
  },
  transaction_history: {
    method: 'getSignaturesForAddress',
    affects: 'mint age, wallet and upgrade history (/scan/token, /scan/wallet, /scan/program)',
  },
  account_reads: {
    method: 'getMultipleAccounts',
    affects: 'every scan',
  },
} as const;

export type CapabilityFamily = keyof typeof CAPABILITY_FAMILIES;

export interface Capability {
  readonly available: boolean;
  readonly method: string;
  /** Why the family is unavailable (absent when available). */
  readonly reason?: string;
}

export type Capabilities = Readonly<Record<CapabilityFamily, Capability>>;

/** Why a probe call failed, in one line an operator can act on. */
export function describeFailure(e: unknown, method: string, timeoutMs: number): string {
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
    return `timed out: no answer to ${method} within ${timeoutMs} ms`;
  }
  if (e instanceof Error && e.name === 'RpcRateLimitedError') return `rate-limited: ${e.message}`;
  if (isSolanaError(e)) {
    const context = e.context as {
      __code?: unknown;
      __serverMessage?: unknown;
      statusCode?: unknown;
      message?: unknown;
    };
    if (typeof context.statusCode === 'number') {
      const text = typeof context.message === 'string' && context.message !== '' ? ` ${context.message}` : '';
      return `${method} refused: HTTP ${context.statusCode}${text}`;
    }
    const message = typeof context.__serverMessage === 'string' ? context.__serverMessage : e.message;
    return `${method} refused (${String(context.__code)}): ${message}`;
  }
  if (e instanceof Error) {
    const cause = (e.cause as { code?: unknown } | undefined)?.code;
    return `${method} failed: ${e.message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
  }
  return `${method} failed: ${String(e)}`;
}

/** Probes every family at once; resolves within about `timeoutMs` and never rejects. */
export async function probeRpcCapabilities(rpc: SolanaRpc, timeoutMs: number): Promise<Capabilities> {
  const send = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });
  const calls: Record<CapabilityFamily, () => Promise<unknown>> = {
    holder_concentration: () => rpc.getTokenLargestAccounts(USDC_MINT).send(send()),
    // As the pump.fun scan asks it: the mints of an owner's token accounts (a 32-byte slice each).
    creator_history: () =>
      rpc
        .getTokenAccountsByOwner(
          PUMP_PROGRAM,
          { programId: TOKEN_PROGRAM },
          { encoding: 'base64', dataSlice: { offset: 0, length: 32 } },
        )
        .send(send()),
    transaction_history: () => rpc.getSignaturesForAddress(USDC_MINT, { limit: 1 }).send(send()),
    account_reads: () =>
      rpc.getMultipleAccounts([USDC_MINT, PUMP_PROGRAM], { encoding: 'base64' }).send(send()),
  };
  const families = Object.keys(CAPABILITY_FAMILIES) as CapabilityFamily[];
  const results = await Promise.all(
    families.map(async (family): Promise<Capability> => {
      const { method } = CAPABILITY_FAMILIES[family];
      try {
        await calls[family]();
        return { available: true, method };
      } catch (e) {
        return { available: false, method, reason: describeFailure(e, method, timeoutMs) };
      }
    }),
  );
  return Object.fromEntries(families.map((f, i) => [f, results[i]!])) as Record<CapabilityFamily, Capability>;
}

export interface DegradedFamily {
  readonly family: CapabilityFamily;
  readonly method: string;
  readonly affects: string;
  readonly reason: string;
}

export function degradedFamilies(capabilities: Capabilities): DegradedFamily[] {
  return (Object.keys(capabilities) as CapabilityFamily[])
    .filter((family) => !capabilities[family].available)
    .map((family) => ({
      family,
      method: capabilities[family].method,
      affects: CAPABILITY_FAMILIES[family].affects,
      reason: capabilities[family].reason ?? 'unavailable',
    }));
}

export interface CapabilityMonitor {
  /** Probes now (start-up awaits this); concurrent callers share one probe. */
  refresh(): Promise<Capabilities>;
  /** The last probe's result, or null before the first. */
  latest(): Capabilities | null;
  /** /health's view: `down` while some family is unavailable, each family listed with why. */
  readonly check: HealthCheck;
}

/**
 * Probes once on demand, then serves the result; /health re-probes in the background when the
 * result is older than `refreshMs`, so a health request never waits on a slow provider again.
 */
export function createCapabilityMonitor(
  probe: () => Promise<Capabilities>,
  refreshMs: number,
  now: () => number = Date.now,
): CapabilityMonitor {
  let last: { at: number; capabilities: Capabilities } | null = null;
  let running: Promise<Capabilities> | null = null;
  const refresh = () => {
    running ??= probe()
      .then((capabilities) => {
        last = { at: now(), capabilities };
        return capabilities;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const check: HealthCheck = async () => {
    if (last === null) await refresh();
    else if (now() - last.at >= refreshMs) void refresh().catch(() => undefined);
    const { at, capabilities } = last!;
    const degraded = degradedFamilies(capabilities);
    const result: CheckResult & { checked_at: string; families: Capabilities } = {
      status: degraded.length === 0 ? 'ok' : 'down',
      detail:
        degraded.length === 0
          ? 'the RPC answers every method the scanners use'
          : `degraded with this RPC: ${degraded.map((d) => d.family).join(', ')}`,
      checked_at: new Date(at).toISOString(),
      families: capabilities,
    };
    return result;
  };
  return { refresh, latest: () => last?.capabilities ?? null, check };
}
