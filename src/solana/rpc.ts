/**
 * The Solana RPC client every scanner uses: kit's RPC over one transport that puts a
 * timeout on each request, fails over across the configured endpoints and retries reads that
 * met a rate limit (HTTP 429) or a transient failure (5xx, dropped connection). A timeout is
 * retried only for a caller with a deadline of its own (a scan), which bounds the retries:
 * callers without one (settlement lookups) must not wait for several more timeouts.
 * Scanners never see URLs; tests swap the transport (e.g. a counting or fault-injecting one).
 *
 * Retries (cockatiel): exponential backoff with decorrelated jitter, at most `maxRetries`
 * rounds after the first, each waiting at least what a 429's `Retry-After` asked (capped).
 * The caller's abort signal (a scan passes its deadline) ends the whole thing, waits included,
 * so a retry never outlives the scan; with such a deadline a round that timed out is retried
 * too. Writes (sendTransaction) are sent once, never retried.
 *
 * Circuit breakers (cockatiel), one per endpoint: `failures` consecutive failures of an endpoint
 * (5xx, a dropped connection, a timeout, an unreadable or mixed-up answer; not a 4xx refusal
 * of one method or a 429's request to slow down, not a caller giving up) open its breaker, and rounds skip it at once.
 * After `halfOpenAfterMs` one request may try it again: its success closes the breaker, its
 * failure opens it for another period. A round whose endpoints are all open counts as
 * transient, so the retries above wait for a half-open probe, still within the caller's deadline.
 *
 * Rate limits (rate-shaper.ts), one per endpoint that has one: each request to it, retries too,
 * first waits for a token of its bucket, a paid scan's before a watch re-scan's (the priority
 * rides on the request: `rpc` asks as a paid scan, `watchRpc` as a re-scan). The wait is the
 * caller's, within its deadline (not within a bound on the read itself: deadline.ts's queueAwareTimeout);
 * the request's own timeout starts once it is sent.
 *
 * An observer (rpc-observer.ts; the service's metrics) may be told of each request sent, with its
 * endpoint, outcome and duration, of each retry round, of each breaker change and of the queues.
 */
import {
  isSolanaError,
  type Rpc,
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type SolanaRpcApi,
} from '@solana/kit';
import { createHttpTransportForSolanaRpc } from '@solana/rpc-transport-http';
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  ExponentialBackoff,
  handleWhen,
  type IBackoff,
  type IBackoffFactory,
  type IRetryBackoffContext,
  retry,
} from 'cockatiel';
import { whileQueued, withTimeout } from '../deadline.js';
import { createLeanSolanaRpc } from './lean-responses.js';
import {
  currentScanOrder,
  RateShaper,
  type RpcPriority,
  type ShaperClock,
  SYSTEM_CLOCK,
  shapedBucket,
} from './rate-shaper.js';
import type { CircuitName, RpcCallOutcome, RpcObserver } from './rpc-observer.js';

export type { RpcPriority } from './rate-shaper.js';
export type { CircuitName } from './rpc-observer.js';

export type SolanaRpc = Rpc<SolanaRpcApi>;

export interface RetryOptions {
  /** Rounds tried after the first (a round asks each endpoint once); 0 turns retries off. */
  readonly maxRetries: number;
  /** First backoff, before jitter. */
  readonly initialDelayMs: number;
  /** Longest wait between rounds, a `Retry-After` included. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, initialDelayMs: 250, maxDelayMs: 5_000 };

export interface BreakerOptions {
  /** Consecutive failures of one endpoint that open its breaker; 0 turns breakers off. */
  readonly failures: number;
  /** How long an open breaker skips its endpoint before one request may try it again. */
  readonly halfOpenAfterMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failures: 5, halfOpenAfterMs: 10_000 };

export interface RpcOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly retry?: Partial<RetryOptions>;
  readonly breaker?: Partial<BreakerOptions>;
  /** Told of every request, retry and breaker change (the service's metrics); none by default. */
  readonly observer?: RpcObserver;
  /** The provider's requests a second for each URL, in `urls` order; null or absent = no limit. */
  readonly rateLimits?: readonly (number | null)[];
  /** The rate limits' clock (tests move it); the system's by default. */
  readonly clock?: ShaperClock;
}

/** One endpoint's breaker, as metrics show it. */
export interface CircuitReading {
  readonly url: string;
  readonly state: CircuitName;
}

/** Methods that change the chain: sent once to the first endpoint, never retried. */
const WRITE_METHODS: ReadonlySet<string> = new Set(['sendTransaction', 'requestAirdrop']);

/** Every endpoint answered HTTP 429 on every round: the RPC plan's rate limit is the bottleneck. */
export class RpcRateLimitedError extends Error {
  override readonly name = 'RpcRateLimitedError';
  constructor(
    readonly method: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      `RPC rate limit: ${method} was answered HTTP 429 (Too Many Requests) on ${attempts} attempt(s); ` +
        'a higher-tier RPC plan or more SOLANA_RPC_URLS would help',
      options,
    );
  }
}

/** The endpoint answered with another request's JSON-RPC id. */
export class RpcIdMismatchError extends Error {
  override readonly name = 'RpcIdMismatchError';
  constructor(method: string, asked: unknown, got: unknown) {
    super(`RPC answer to ${method} carried id ${JSON.stringify(got)}, not ${JSON.stringify(asked)}`);
  }
}

/** An answer that is no JSON-RPC answer (not an object holding `result` or `error`): the endpoint failed. */
export class RpcMalformedAnswerError extends Error {
  override readonly name = 'RpcMalformedAnswerError';
  constructor(method: string, answer: unknown) {
    const shown = JSON.stringify(answer, (_, v) => (typeof v === 'bigint' ? String(v) : v)) ?? String(answer);
    super(`RPC answer to ${method} is not a JSON-RPC answer: ${shown.slice(0, 80)}`);
  }
}

const isJsonRpcAnswer = (answer: unknown): boolean =>
  typeof answer === 'object' &&
  answer !== null &&
  !Array.isArray(answer) &&
  ('result' in answer || 'error' in answer);

/** What one failed round (every endpoint tried once) tells the retry policy. */
class RoundFailedError extends Error {
  override readonly name = 'RoundFailedError';
  constructor(
    readonly last: unknown,
    /** Some endpoint may answer if asked again: 429, 5xx, reset or refused connection. */
    readonly transient: boolean,
    /** Every endpoint answered 429. */
    readonly rateLimited: boolean,
    /** The shortest `Retry-After` an endpoint sent, in ms. */
    readonly retryAfterMs: number | undefined,
  ) {
    super('every RPC endpoint failed', { cause: last });
  }
}

function httpStatusOf(e: unknown): { status: number; headers: Headers | undefined } | undefined {
  if (!isSolanaError(e, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) return undefined;
  const headers = (e.context as { headers?: unknown }).headers;
  return { status: e.context.statusCode, headers: headers instanceof Headers ? headers : undefined };
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Worth asking again later: 429, 5xx or a network failure (fetch's TypeError: reset, refused). */
function isTransient(e: unknown): boolean {
  const http = httpStatusOf(e);
  if (http !== undefined) return http.status === 429 || http.status >= 500;
  return e instanceof Error && e.name === 'TypeError';
}

/**
 * A failure of the endpoint itself, which counts towards opening its breaker. A 4xx is a refusal
 * of this request (a disabled method, a bad parameter), and a 429 asks to slow down, often for
 * one method only (a young token's launch reads send a burst of getTransaction): the endpoint is
 * up, and the retries already wait as it asks. Resting it would fail every other read too.
 */
function isEndpointFailure(e: unknown): boolean {
  if (e instanceof CallerGaveUp) return false;
  const http = httpStatusOf(e);
  return http === undefined || http.status >= 500;
}

/** Wraps what an attempt threw after its caller aborted: that says nothing about the endpoint. */
class CallerGaveUp extends Error {
  constructor(readonly original: unknown) {
    super('the caller gave up');
  }
}

/** Every endpoint was skipped: each one's breaker is open. */
export class RpcCircuitOpenError extends Error {
  override readonly name = 'RpcCircuitOpenError';
  constructor() {
    super('every RPC endpoint failed repeatedly and is rested for a while (circuit open)');
  }
}

function circuitName(state: CircuitState): CircuitName {
  if (state === CircuitState.HalfOpen) return 'half_open';
  return state === CircuitState.Closed ? 'closed' : 'open';
}

/** One breaker per endpoint, or none when `failures` is 0. */
export function createBreakers(
  count: number,
  options: Partial<BreakerOptions> = {},
): readonly CircuitBreakerPolicy[] | null {
  const { failures, halfOpenAfterMs } = { ...DEFAULT_BREAKER, ...options };
  if (failures <= 0) return null;
  return Array.from({ length: count }, () => {
    // A probe its caller gave up on proved nothing: it must not close the breaker (cockatiel
    // counts any unhandled error during a probe as a success).
    const breaker: CircuitBreakerPolicy = circuitBreaker(
      handleWhen(
        (e) => isEndpointFailure(e) || (e instanceof CallerGaveUp && breaker.state === CircuitState.HalfOpen),
      ),
      { halfOpenAfter: halfOpenAfterMs, breaker: new ConsecutiveBreaker(failures) },
    );
    return breaker;
  });
}

function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError';
}

/**
 * Runs one request to an endpoint through its breaker, if it has one (which throws
 * BrokenCircuitError while open). A failure after the caller gave up is not counted against it.
 */
async function throughBreaker<T>(
  breaker: CircuitBreakerPolicy | undefined,
  run: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (breaker === undefined) return run();
  // While one probe tries the endpoint, other reads go on to the next one instead of queueing
  // behind the probe (cockatiel holds them until it ends, whatever their deadline).
  if (breaker.state === CircuitState.HalfOpen) throw new BrokenCircuitError();
  try {
    return await breaker.execute(async () => {
      try {
        return await run();
      } catch (e) {
        throw signal?.aborted ? new CallerGaveUp(e) : e;
      }
    });
  } catch (e) {
    throw e instanceof CallerGaveUp ? e.original : e;
  }
}

/** Waits `maxDelayMs` at most: the jittered exponential step, or longer if a 429 asked for it. */
class RetryAfterBackoff implements IBackoffFactory<IRetryBackoffContext<unknown>> {
  constructor(
    private readonly inner: IBackoffFactory<IRetryBackoffContext<unknown>>,
    private readonly maxDelayMs: number,
  ) {}

  next(context: IRetryBackoffContext<unknown>): IBackoff<IRetryBackoffContext<unknown>> {
    return this.wrap(this.inner.next(context), context);
  }

  private wrap(
    step: IBackoff<IRetryBackoffContext<unknown>>,
    context: IRetryBackoffContext<unknown>,
  ): IBackoff<IRetryBackoffContext<unknown>> {
    const error = 'error' in context.result ? context.result.error : undefined;
    const asked = error instanceof RoundFailedError ? (error.retryAfterMs ?? 0) : 0;
    return {
      duration: Math.min(this.maxDelayMs, Math.max(step.duration, asked)),
      next: (ctx) => this.wrap(step.next(ctx), ctx),
    };
  }
}

/** How a request that threw ended, for the observer. */
function failureOutcome(e: unknown, callerGaveUp: boolean): RpcCallOutcome {
  if (callerGaveUp) return 'abandoned';
  if (e instanceof RpcIdMismatchError) return 'mixed_up';
  if (isTimeout(e)) return 'timeout';
  return httpStatusOf(e)?.status === 429 ? '429' : 'error';
}

type Send = (i: number, request: Parameters<RpcTransport>[0], method: string) => Promise<unknown>;

/** `send`, with each request's outcome and duration told to `observer`. */
function observed(send: Send, observer: RpcObserver): Send {
  return async (i, request, method) => {
    const started = performance.now();
    let outcome: RpcCallOutcome = 'ok';
    try {
      const answer = await send(i, request, method);
      if ((answer as { error?: unknown } | null)?.error !== undefined) outcome = 'rpc_error';
      return answer;
    } catch (e) {
      outcome = failureOutcome(e, request.signal?.aborted === true);
      throw e;
    } finally {
      observer.call(i, method, outcome, (performance.now() - started) / 1000);
    }
  };
}

function methodOf(payload: unknown): string {
  const method = (payload as { method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : 'RPC request';
}

/** Rejects when the signal aborts, with its reason, as fetch does. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** Another round after a transient failure, backing off (or as long as a 429 asks). */
function retryPolicyOf(options: RetryOptions) {
  return retry(
    handleWhen((e) => e instanceof RoundFailedError && e.transient),
    {
      maxAttempts: options.maxRetries,
      backoff: new RetryAfterBackoff(
        new ExponentialBackoff({ initialDelay: options.initialDelayMs, maxDelay: options.maxDelayMs }),
        options.maxDelayMs,
      ),
    },
    // cockatiel 3 does not cut its wait short on abort: the race below answers the caller at
    // once, and the round that follows the wait sees the abort and sends nothing. (The timer
    // stays referenced: unref'd, a process with nothing else to do would exit mid-retry.)
  );
}

type TransportRequest = Parameters<RpcTransport>[0];

/** A request with the priority of whoever asks (rpc.ts's own transports add it). */
type PrioritizedRequest = TransportRequest & { readonly priority?: RpcPriority };

const priorityOf = (request: TransportRequest): RpcPriority =>
  (request as PrioritizedRequest).priority ?? 'paid';

/** `transport`, each request of it asking with `priority`. */
function withPriority(transport: RpcTransport, priority: RpcPriority): RpcTransport {
  return ((request: TransportRequest) =>
    transport({ ...request, priority } as PrioritizedRequest)) as RpcTransport;
}

/**
 * Waits for endpoint `i`'s turn under its rate limit, if it has one. An endpoint whose breaker
 * is not closed is skipped (or probed once) without waiting: its turn would hold up the next endpoint.
 */
function turnOf(
  shapers: readonly (RateShaper | null)[] | null,
  breakers: readonly CircuitBreakerPolicy[] | null,
) {
  return async (i: number, request: TransportRequest): Promise<void> => {
    const shaper = shapers?.[i];
    if (!shaper) return;
    const breaker = breakers?.[i];
    if (breaker !== undefined && breaker.state !== CircuitState.Closed) return;
    // The wait for a turn is not taken from a bound its caller put on the read (deadline.ts).
    const order = currentScanOrder();
    await whileQueued(request.signal, () => shaper.acquire(priorityOf(request), request.signal, order));
  };
}

/** One request to endpoint `i` within the timeout; an answer to another request id is a failure. */
function sender(transports: readonly RpcTransport[], timeoutMs: number) {
  return async (i: number, request: TransportRequest, method: string): Promise<unknown> => {
    const answer = await withTimeout(timeoutMs, (timeout) => {
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      return transports[i]!({ ...request, signal });
    });
    // Anything else (null, a number, an object without result or error) would reach the scan as a
    // TypeError: the endpoint failed, and the next one is asked.
    if (!isJsonRpcAnswer(answer)) throw new RpcMalformedAnswerError(method, answer);
    // An answer to another request (a mixed-up proxy or load balancer) is not this one's
    // answer: the endpoint failed, and the next one is asked. (A null id is a JSON-RPC parse error.)
    const asked = (request.payload as { id?: unknown } | null)?.id;
    const got = (answer as { id?: unknown } | null)?.id;
    if (asked !== undefined && got !== undefined && got !== null && String(got) !== String(asked)) {
      throw new RpcIdMismatchError(method, asked, got);
    }
    return answer;
  };
}

function checkOnePerEndpoint(
  endpoints: number,
  breakers: readonly unknown[] | null,
  shapers: readonly unknown[] | null,
) {
  if (endpoints === 0) throw new Error('at least one RPC endpoint is required');
  if (breakers !== null && breakers.length !== endpoints)
    throw new Error('one circuit breaker per RPC endpoint');
  if (shapers !== null && shapers.length !== endpoints)
    throw new Error('one rate limit (or null) per RPC endpoint');
}

/**
 * One transport over several endpoints: each read tries them in order until one answers, and
 * the whole round is tried again (with backoff) while the failures are transient.
 */
export function createFailoverTransport(
  transports: readonly RpcTransport[],
  timeoutMs: number,
  retryOptions: Partial<RetryOptions> = {},
  /** One per transport, in the same order; null = no breakers. */
  breakers: readonly CircuitBreakerPolicy[] | null = null,
  observer: RpcObserver | null = null,
  /** One per transport, in the same order (null: that endpoint has no rate limit); null = none. */
  shapers: readonly (RateShaper | null)[] | null = null,
): RpcTransport {
  checkOnePerEndpoint(transports.length, breakers, shapers);
  const policy = retryPolicyOf({ ...DEFAULT_RETRY, ...retryOptions });

  type Request = Parameters<RpcTransport>[0];

  const send = sender(transports, timeoutMs);
  const attempt = observer === null ? send : observed(send, observer);
  const turn = turnOf(shapers, breakers);

  const round = async (request: Request, method: string): Promise<unknown> => {
    let last: unknown;
    let transient = false;
    let rateLimited = true;
    let retryAfterMs: number | undefined;
    for (let i = 0; i < transports.length; i++) {
      // A round that starts after the caller gave up sends nothing.
      if (request.signal?.aborted) throw request.signal.reason;
      try {
        await turn(i, request);
        return await throughBreaker(breakers?.[i], () => attempt(i, request, method), request.signal);
      } catch (e) {
        if (e instanceof BrokenCircuitError) {
          // Skipped without a request: worth another round once a breaker half-opens, for a
          // caller with a deadline of its own (a lookup without one must not wait for more timeouts).
          transient ||= request.signal !== undefined;
          continue;
        }
        // Transport-level failures (network, timeout, any HTTP error) are worth another
        // endpoint; a JSON-RPC error answer is returned by the transport as a value and never gets here.
        if (request.signal?.aborted || !(e instanceof Error)) throw e;
        last = e;
        // A timeout is worth another round only within a caller's own deadline (a scan's).
        transient ||= isTransient(e) || (isTimeout(e) && request.signal !== undefined);
        const http = httpStatusOf(e);
        if (http?.status === 429) {
          const asked = parseRetryAfter(http.headers?.get('retry-after'));
          if (asked !== undefined) retryAfterMs = Math.min(retryAfterMs ?? asked, asked);
        } else {
          rateLimited = false;
        }
      }
    }
    if (last === undefined) throw new RoundFailedError(new RpcCircuitOpenError(), true, false, undefined);
    throw new RoundFailedError(last, transient, rateLimited, retryAfterMs);
  };

  return (async (request) => {
    const method = methodOf(request.payload);
    if (WRITE_METHODS.has(method)) {
      await turn(0, request);
      return attempt(0, request, method);
    }
    let rounds = 0;
    const run = policy
      .execute(() => {
        rounds += 1;
        if (rounds > 1 && !request.signal?.aborted) observer?.retry(method);
        return round(request, method);
      }, request.signal)
      .catch((e: unknown) => {
        if (!(e instanceof RoundFailedError)) throw e;
        if (e.rateLimited) throw new RpcRateLimitedError(method, rounds, { cause: e.last });
        throw e.last;
      });
    return untilAborted(run, request.signal);
  }) as RpcTransport;
}

/** `run`'s answer, or the signal's reason as soon as it aborts (what `run` settles to then is dropped). */
async function untilAborted<T>(run: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return run;
  run.catch(() => {}); // settled after an abort: nobody is listening any more
  const aborted = whenAborted(signal);
  try {
    return await Promise.race([run, aborted.promise]);
  } finally {
    aborted.dispose();
  }
}

export interface RpcEndpoints {
  /** The RPC as paid scans (and every other caller) use it. */
  readonly rpc: SolanaRpc;
  /** The transport under `rpc`: a batch of scans merges its reads over it (read-merger.ts). */
  readonly transport: RpcTransport;
  /** The same endpoints, asked as a watch re-scan: its requests wait behind paid scans' under a rate limit. */
  readonly watchRpc: SolanaRpc;
  /** Each endpoint's breaker state, in SOLANA_RPC_URLS order; empty when breakers are off. */
  circuits(): readonly CircuitReading[];
}

/** A rate shaper for each URL with a stated limit, telling the observer of its queues; null when none has one. */
function shapersOf(options: RpcOptions, observer: RpcObserver | null): (RateShaper | null)[] | null {
  const limits = options.rateLimits ?? [];
  if (!limits.some((limit) => limit !== null && limit !== undefined)) return null;
  const clock = options.clock ?? SYSTEM_CLOCK;
  return options.urls.map((_, i) => {
    const limit = limits[i];
    if (limit === null || limit === undefined) return null;
    return new RateShaper(
      shapedBucket(limit, () => clock.now()),
      clock,
      {
        queued: (priority, depth) => observer?.queued?.(i, priority, depth),
        granted: (priority, waitedMs) => observer?.waited?.(i, priority, waitedMs / 1000),
      },
    );
  });
}

export function createRpcEndpoints(options: RpcOptions): RpcEndpoints {
  // Plain HTTP transports: kit's default one coalesces identical requests of the same tick and
  // hands every caller the first one's answer, whose JSON-RPC id then fails the check above.
  const transports = options.urls.map((url) =>
    createHttpTransportForSolanaRpc({ url, headers: { 'accept-encoding': 'br,gzip,deflate' } }),
  );
  const breakers = createBreakers(transports.length, options.breaker);
  const observer = options.observer ?? null;
  if (observer !== null) {
    breakers?.forEach((breaker, i) => {
      breaker.onStateChange((state) => observer.breakerChanged(i, circuitName(state)));
    });
  }
  const shapers = shapersOf(options, observer);
  const transport = createFailoverTransport(
    transports,
    options.timeoutMs,
    options.retry,
    breakers,
    observer,
    shapers,
  );
  const paid = withPriority(transport, 'paid');
  return {
    // Kit's RPC, but for its walk of transaction and signature-page answers (lean-responses.ts).
    rpc: createLeanSolanaRpc(paid),
    transport: paid,
    watchRpc: createLeanSolanaRpc(withPriority(transport, 'watch')),
    circuits: () => (breakers ?? []).map((b, i) => ({ url: options.urls[i]!, state: circuitName(b.state) })),
  };
}

export function createRpc(options: RpcOptions): SolanaRpc {
  return createRpcEndpoints(options).rpc;
}
