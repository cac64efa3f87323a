/**
 * What we know about each configured facilitator: its Solana fee payer (from GET /supported,
 * cached and refreshed in the background) and whether it is healthy. The 402 advertises the
 * first healthy one; a payment is later routed to the facilitator whose fee payer it names.
 *
 * This health is each facilitator's circuit breaker, so none is stacked on top: a failed call
 * opens it (markUnhealthy: the 402 names the next one), a probe of /supported every retryMs is
 * the half-open try, a good answer closes it. Unlike an RPC endpoint, an open one is not
 * skipped for a payment built around its fee payer: no other facilitator can settle it.
 */
import { z } from 'zod';
import { errorMessage } from '../errors.js';
import { base58Problem } from '../solana/base58.js';
import { FacilitatorError, observeCall } from './facilitator-client.js';
import type { FacilitatorObserver } from './facilitator-observer.js';
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
  /** Told of every /supported call (the service's metrics). */
  readonly observer?: FacilitatorObserver;
}

/** How a probe of /supported ended, which decides when the next one is due. */
type ProbeOutcome = 'healthy' | 'failed' | 'overtaken';

/** Background probing of one facilitator: at most one probe in flight and one timer pending. */
interface Prober {
  timer: NodeJS.Timeout | null;
  /** performance.now() at which `timer` fires. */
  dueAt: number;
  inFlight: Promise<void> | null;
  /** Bumped by markUnhealthy, so a probe started before the failure cannot undo it. */
  failedCalls: number;
}

export class FacilitatorDirectory {
  private readonly states: FacilitatorStatus[];
  private readonly probers: Prober[];
  private started = false;
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
    this.probers = options.urls.map(() => ({ timer: null, dueAt: 0, inFlight: null, failedCalls: 0 }));
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

  /**
   * Learns every facilitator's fee payer once, then keeps probing each in the background:
   * a healthy one every refreshMs, an unhealthy one every retryMs.
   */
  async start(): Promise<void> {
    this.started = true;
    await this.refresh();
  }

  stop(): void {
    this.stopped = true;
    for (const prober of this.probers) {
      if (prober.timer) clearTimeout(prober.timer);
      prober.timer = null;
    }
  }

  async refresh(): Promise<void> {
    await Promise.all(this.states.map((_, i) => this.probe(i)));
  }

  /**
   * Records a failed call made elsewhere (verify/settle), so the next 402 fails over, and has
   * /supported re-probed soon: one failed call is weak evidence, and while no facilitator is
   * advertised no client can pay, so then the re-probe starts at once.
   */
  markUnhealthy(url: string, message: string): void {
    const i = this.states.findIndex((s) => s.url === url);
    const state = this.states[i];
    // An unhealthy one is already retried every retryMs; more failures need no extra probe.
    if (state === undefined || !state.healthy) return;
    this.probers[i]!.failedCalls++;
    this.update(i, { ...state, healthy: false, lastError: message });
    this.probeWithin(i, this.recheckDelay());
  }

  private get running(): boolean {
    return this.started && !this.stopped;
  }

  private get retryMs(): number {
    return Math.min(this.options.retryMs ?? 5_000, this.options.refreshMs);
  }

  /** How soon to re-check a facilitator a call failed on: at once if nothing else is advertised. */
  private recheckDelay(): number {
    return this.advertised() === null ? 0 : this.retryMs;
  }

  /** Probes facilitator `i` within `delay` ms, unless a probe is already under way or due sooner. */
  private probeWithin(i: number, delay: number): void {
    const prober = this.probers[i]!;
    if (!this.running || prober.inFlight) return;
    if (prober.timer && prober.dueAt <= performance.now() + delay) return;
    this.planProbe(i, delay);
  }

  private planProbe(i: number, delay: number): void {
    const prober = this.probers[i]!;
    if (!this.running) return;
    if (prober.timer) clearTimeout(prober.timer);
    prober.dueAt = performance.now() + delay;
    prober.timer = setTimeout(() => {
      prober.timer = null;
      void this.probe(i);
    }, delay);
    prober.timer.unref();
  }

  /** Probes facilitator `i` now, or joins the probe already under way; then plans the next one. */
  private probe(i: number): Promise<void> {
    const prober = this.probers[i]!;
    if (prober.inFlight) return prober.inFlight;
    // A throwing onError must not leave the probe "in flight" forever, which would end the probing.
    const probed = this.refreshOne(i).catch((): ProbeOutcome => 'failed');
    prober.inFlight = probed.then((outcome) => {
      prober.inFlight = null;
      const delay =
        outcome === 'healthy'
          ? this.options.refreshMs
          : outcome === 'failed'
            ? this.retryMs
            : this.recheckDelay();
      this.planProbe(i, delay);
    });
    return prober.inFlight;
  }

  private async refreshOne(i: number): Promise<ProbeOutcome> {
    const { url } = this.states[i]!;
    const failedCallsBefore = this.probers[i]!.failedCalls;
    const now = (this.options.now ?? Date.now)();
    try {
      const learned = readSupported(await this.fetchSupported(url));
      if (learned.feePayer === null)
        throw new Error('its /supported lists no Solana mainnet exact fee payer');
      // Re-read the state: markUnhealthy may have changed it while /supported was answering.
      const state = this.states[i]!;
      if (this.probers[i]!.failedCalls !== failedCallsBefore) {
        // This answer predates a failed call, so it says nothing about the facilitator since.
        this.update(i, { ...state, ...learned, checkedAt: now });
        return 'overtaken';
      }
      this.update(i, { ...state, ...learned, healthy: true, lastError: null, checkedAt: now });
      return 'healthy';
    } catch (e) {
      const message = errorMessage(e);
      this.options.onError?.(url, message);
      // Keep the last known fee payer: payments already built around it can still settle there.
      this.update(i, { ...this.states[i]!, healthy: false, lastError: message, checkedAt: now });
      return 'failed';
    }
  }

  private fetchSupported(url: string): Promise<Supported> {
    return observeCall(
      this.options.observer,
      { url, operation: 'supported' },
      () => this.askSupported(url),
      () => true,
    );
  }

  private async askSupported(url: string): Promise<Supported> {
    const doFetch = this.options.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(`${url}/supported`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw timedOut
        ? new FacilitatorError('timeout', `/supported timed out after ${this.options.timeoutMs} ms`)
        : new FacilitatorError('unreachable', '/supported unreachable');
    }
    if (!res.ok) throw new FacilitatorError('http', `/supported answered HTTP ${res.status}`, res.status);
    const body: unknown = await res.json().catch(() => undefined);
    const parsed = SupportedSchema.safeParse(body);
    if (!parsed.success)
      throw new FacilitatorError(
        'garbage',
        '/supported answered something that is not an x402 supported list',
      );
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
