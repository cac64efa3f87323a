/**
 * Calls a facilitator's POST /verify and POST /settle (x402 v1 or v2 bodies) with a timeout
 * on every call. Answers are validated; anything else is a FacilitatorError whose `kind`
 * tells a definite refusal from an outcome we cannot know (timeout, 5xx, garbage).
 */
import { z } from 'zod';
import type {
  FacilitatorCallOutcome,
  FacilitatorObserver,
  FacilitatorOperation,
} from './facilitator-observer.js';

export type FacilitatorErrorKind = 'timeout' | 'unreachable' | 'http' | 'garbage';

export class FacilitatorError extends Error {
  override readonly name = 'FacilitatorError';
  constructor(
    readonly kind: FacilitatorErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const VerifySchema = z.object({
  isValid: z.boolean(),
  invalidReason: z.string().nullish(),
  invalidMessage: z.string().nullish(),
  payer: z.string().nullish(),
});
const SettleSchema = z.object({
  success: z.boolean(),
  errorReason: z.string().nullish(),
  errorMessage: z.string().nullish(),
  payer: z.string().nullish(),
  transaction: z.string().nullish(),
  network: z.string().nullish(),
});

export type VerifyAnswer = z.infer<typeof VerifySchema>;
export type SettleAnswer = z.infer<typeof SettleSchema>;

export interface FacilitatorCall {
  readonly url: string;
  readonly x402Version: 1 | 2;
  readonly paymentPayload: unknown;
  readonly paymentRequirements: unknown;
  readonly timeoutMs: number;
}

export interface FacilitatorClient {
  verify(call: FacilitatorCall): Promise<VerifyAnswer>;
  settle(call: FacilitatorCall): Promise<SettleAnswer>;
}

async function post<T>(
  doFetch: typeof fetch,
  call: FacilitatorCall,
  path: string,
  schema: z.ZodType<T>,
): Promise<T> {
  let res: Response;
  try {
    res = await doFetch(`${call.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        x402Version: call.x402Version,
        paymentPayload: call.paymentPayload,
        paymentRequirements: call.paymentRequirements,
      }),
      signal: AbortSignal.timeout(call.timeoutMs),
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    if (timedOut) throw new FacilitatorError('timeout', `${path} timed out after ${call.timeoutMs} ms`);
    throw new FacilitatorError('unreachable', `${path} unreachable`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    if (timedOut) throw new FacilitatorError('timeout', `${path} timed out after ${call.timeoutMs} ms`);
    throw new FacilitatorError(
      res.ok ? 'garbage' : 'http',
      `${path} answered HTTP ${res.status} without JSON`,
      res.status,
    );
  }
  const parsed = schema.safeParse(body);
  // Facilitators answer refusals with 400 and a normal body; those are answers, not errors.
  if (parsed.success) return parsed.data;
  if (!res.ok) throw new FacilitatorError('http', `${path} answered HTTP ${res.status}`, res.status);
  throw new FacilitatorError(
    'garbage',
    `${path} answered something that is not an x402 ${path.slice(1)} response`,
  );
}

const OUTCOME_OF_ERROR: Readonly<Record<FacilitatorErrorKind, FacilitatorCallOutcome>> = {
  timeout: 'timeout',
  unreachable: 'unreachable',
  http: 'http_error',
  garbage: 'garbage',
};

/** Runs `call`, telling `observer` (if any) how it ended; `accepted` reads a yes from an answer. */
export async function observeCall<T>(
  observer: FacilitatorObserver | undefined,
  target: { readonly url: string; readonly operation: FacilitatorOperation },
  call: () => Promise<T>,
  accepted: (answer: T) => boolean,
): Promise<T> {
  if (observer === undefined) return call();
  const started = performance.now();
  let outcome: FacilitatorCallOutcome = 'garbage';
  try {
    const answer = await call();
    outcome = accepted(answer) ? 'ok' : 'refused';
    return answer;
  } catch (e) {
    outcome = e instanceof FacilitatorError ? OUTCOME_OF_ERROR[e.kind] : 'garbage';
    throw e;
  } finally {
    observer.call(target.url, target.operation, outcome, (performance.now() - started) / 1000);
  }
}

export function createFacilitatorClient(
  doFetch: typeof fetch = fetch,
  /** Told of every call (the service's metrics); none by default. */
  observer?: FacilitatorObserver,
): FacilitatorClient {
  return {
    verify: (call) =>
      observeCall(
        observer,
        { url: call.url, operation: 'verify' },
        () => post(doFetch, call, '/verify', VerifySchema),
        (a) => a.isValid,
      ),
    settle: (call) =>
      observeCall(
        observer,
        { url: call.url, operation: 'settle' },
        () => post(doFetch, call, '/settle', SettleSchema),
        (a) => a.success,
      ),
  };
}
