/**
 * What we know about each configured facilitator: its Solana fee payer (from GET /supported,
 * cached and refreshed in the background) and whether it is healthy. The 402 advertises the
 * first healthy one; a payment is later routed to the facilitator whose fee payer it names.
 */
import { z } from 'zod';
import { base58Problem } from '../solana/base58.js';
import { isSolanaMainnet, SOLANA_MAINNET_CAIP2 } from './networks.js';

export interface FacilitatorStatus {
  readonly url: string;
  readonly healthy: boolean;
  /** Fee payer for Solana mainnet `exact` payments, once learned. */
  readonly feePayer: string | null;
  /** Network names it listed for Solana mainnet, per x402 version (e.g. v1 "solana", v2 CAIP-2). */
  readonly networks: { readonly v1: string | null; readonly v2: string | null };
  readonly lastError: string | null;
  /** Epoch ms of the last /supported attempt; null before the first. */
  readonly checkedAt: number | null;
}

const SupportedSchema = z.object({
  kinds: z.array(
    z.object({
      x402Version: z.number(),
      scheme: z.string(),
      network: z.string(),
      extra: z.record(z.string(), z.unknown()).nullish(),
    }),
  ),
  signers: z.record(z.string(), z.array(z.string())).nullish(),
});

type Supported = z.infer<typeof SupportedSchema>;

function isAddress(v: unknown): v is string {
  return typeof v === 'string' && base58Problem(v, 32) === null;
}

/** Reads fee payer and mainnet network names out of a /supported answer. */
export function readSupported(supported: Supported): Pick<FacilitatorStatus, 'feePayer' | 'networks'> {
  const kinds = supported.kinds.filter((k) => k.scheme === 'exact' && isSolanaMainnet(k.network));
  const v1 = kinds.find((k) => k.x402Version === 1);
  const v2 = kinds.find((k) => k.x402Version === 2);
  const fromKinds = kinds.map((k) => k.extra?.feePayer).find(isAddress);
  const fromSigners = Object.entries(supported.signers ?? {})
    .filter(([network]) => network === 'solana:*' || network === SOLANA_MAINNET_CAIP2)
    .flatMap(([, signers]) => signers)
    .find(isAddress);
  return {
    feePayer: fromKinds ?? (kinds.length > 0 ? (fromSigners ?? null) : null),
    networks: { v1: v1?.network ?? null, v2: v2?.network ?? null },
  };
}

export interface FacilitatorDirectoryOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly refreshMs: number;
  /** Retry delay while a facilitator is unhealthy (shorter than refreshMs). */
  readonly retryMs?: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  readonly onError?: (url: string, message: string) => void;
}

export class FacilitatorDirectory {
  private readonly states: FacilitatorStatus[];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Bumped whenever what the 402 advertises could change, so callers can drop memoised bodies. */
  version = 0;

  constructor(private readonly options: FacilitatorDirectoryOptions) {
    this.states = options.urls.map((url) => ({
      url,
      healthy: false,
      feePayer: null,
      networks: { v1: null, v2: null },
      lastError: 'not checked yet',
      checkedAt: null,
    }));
  }

  /** Facilitator identifiers as advertised in discovery documents. */
  get identifiers(): readonly string[] {
    return this.options.urls;
  }

  status(): readonly FacilitatorStatus[] {
    return this.states;
  }

  /** The facilitator the next 402 should name, or null when none is usable. */
  advertised(): FacilitatorStatus | null {
    return this.states.find((s) => s.healthy && s.feePayer !== null) ?? null;
  }

  /** The facilitator that can settle a transaction built around `feePayer`. */
  byFeePayer(feePayer: string): FacilitatorStatus | null {
    return this.states.find((s) => s.feePayer === feePayer) ?? null;
  }

  /** Why no facilitator is usable, for the 402 `error` text and /health. */
  unavailableReason(): string {
    const reasons = this.states.map((s) => `${s.url}: ${s.lastError ?? 'no Solana mainnet fee payer'}`);
    return `no payment facilitator is reachable (${reasons.join('; ')})`;
  }

  /** Learns every facilitator's fee payer once, then keeps refreshing in the background. */
  async start(): Promise<void> {
    await this.refresh();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    await Promise.all(this.states.map((_, i) => this.refreshOne(i)));
  }

  /** Records a failed call made elsewhere (verify/settle), so the next 402 fails over. */
  markUnhealthy(url: string, message: string): void {
    const i = this.states.findIndex((s) => s.url === url);
    const state = this.states[i];
    if (state === undefined || !state.healthy) return;
    this.update(i, { ...state, healthy: false, lastError: message });
  }

  private schedule(): void {
    if (this.stopped) return;
    const allHealthy = this.states.every((s) => s.healthy);
    const delay = allHealthy
      ? this.options.refreshMs
      : Math.min(this.options.retryMs ?? 5_000, this.options.refreshMs);
    this.timer = setTimeout(() => {
      void this.refresh().finally(() => this.schedule());
    }, delay);
    this.timer.unref();
  }

  private async refreshOne(i: number): Promise<void> {
    const state = this.states[i]!;
    const now = (this.options.now ?? Date.now)();
    try {
      const learned = readSupported(await this.fetchSupported(state.url));
      if (learned.feePayer === null)
        throw new Error('its /supported lists no Solana mainnet exact fee payer');
      this.update(i, { ...state, ...learned, healthy: true, lastError: null, checkedAt: now });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.options.onError?.(state.url, message);
      // Keep the last known fee payer: payments already built around it can still settle there.
      this.update(i, { ...state, healthy: false, lastError: message, checkedAt: now });
    }
  }

  private async fetchSupported(url: string): Promise<Supported> {
    const doFetch = this.options.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(`${url}/supported`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw new Error(
        timedOut ? `/supported timed out after ${this.options.timeoutMs} ms` : '/supported unreachable',
      );
    }
    if (!res.ok) throw new Error(`/supported answered HTTP ${res.status}`);
    const body: unknown = await res.json().catch(() => undefined);
    const parsed = SupportedSchema.safeParse(body);
    if (!parsed.success) throw new Error('/supported answered something that is not an x402 supported list');
    return parsed.data;
  }

  private update(i: number, next: FacilitatorStatus): void {
    const before = this.states[i]!;
    this.states[i] = next;
    const changed =
      before.healthy !== next.healthy ||
      before.feePayer !== next.feePayer ||
      before.lastError !== next.lastError;
    if (changed) this.version++;
  }
}
