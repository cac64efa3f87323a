/**
 * Calls a facilitator's POST /verify and POST /settle (x402 v1 or v2 bodies) with a timeout
 * on every call. Answers are validated; anything else is a FacilitatorError whose `kind`
 * tells a definite refusal from an outcome we cannot know (timeout, 5xx, garbage).
 */
import { z } from 'zod';

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

export function createFacilitatorClient(doFetch: typeof fetch = fetch): FacilitatorClient {
  return {
    verify: (call) => post(doFetch, call, '/verify', VerifySchema),
    settle: (call) => post(doFetch, call, '/settle', SettleSchema),
  };
}
