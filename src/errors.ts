/**
 * The service's error taxonomy: one code, one HTTP status, mapped in one place.
 * Every status here means "not charged": the payment gate settles only after a delivered result.
 * 402 answers are not errors of this kind; they carry the x402 PaymentRequired body.
 */
import { type CodeOf, REASONS, type Reason, reason } from './reasons.js';
export const ERROR_STATUS = {
  invalid_input: 400,
  bad_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
  scan_failed: 500,
  internal_error: 500,
  /** A paid call refused before its payment was touched: saturated or shutting down (with Retry-After). */
  service_unavailable: 503,
} as const satisfies Record<string, 400 | 404 | 405 | 408 | 414 | 431 | 500 | 503>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** The reasons a ServiceError can give: those of a 400, 500 or 503 (src/reasons.ts). */
export type ErrorReasonCode = CodeOf<400 | 500 | 503>;

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** Its code in the reasons table, when it was made from one (reasonError). */
  readonly reason: ErrorReasonCode | null;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields rendered in the body (e.g. `parameter`). Never secrets, never stack traces. */
    readonly details: Readonly<Record<string, string | number>> = {},
    options?: ErrorOptions & { readonly reason?: ErrorReasonCode },
  ) {
    super(message, options);
    this.reason = options?.reason ?? null;
  }

  get status(): ErrorStatus {
    return ERROR_STATUS[this.code];
  }

  /** The JSON body a caller sees. */
  toBody(requestId?: string): Record<string, string | number> {
    const body: Record<string, string | number> = {
      error: this.code,
      ...this.details,
      message: this.message,
    };
    if (requestId !== undefined) body.request_id = requestId;
    return body;
  }
}

/**
 * The error of a reason in the table: its `error` and message; a 503's body names the code as
 * its `reason`. `details` are the body's other fields (e.g. `parameter`).
 */
export function reasonError(
  given: Reason<ErrorReasonCode>,
  details: Readonly<Record<string, string | number>> = {},
  cause?: unknown,
): ServiceError {
  const entry = REASONS[given.code];
  const fields = entry.status === 503 ? { reason: given.code, ...details } : details;
  const options = cause === undefined ? { reason: given.code } : { reason: given.code, cause };
  return new ServiceError(entry.error, given.text, fields, options);
}

/** Name-based so it holds even if two copies of this module are loaded. */
export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof Error && e.name === 'ServiceError';
}

/** The one place an unknown throwable becomes a typed error; the cause is logged, never shown. */
export function toServiceError(e: unknown): ServiceError {
  if (isServiceError(e)) return e;
  return reasonError(reason('unexpected_error'), {}, e);
}

/** An unknown throwable's message, for a reason or a log line (what a caught RPC error says). */
export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
