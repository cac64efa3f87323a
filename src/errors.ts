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

/** The reasons a ServiceError can give: every one but a 402's (src/reasons.ts). */
export type ErrorReasonCode = CodeOf<ErrorStatus>;

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  /** The body's `error`: the status's word, as the reasons table gives it for `reason`. */
  readonly code: ErrorCode;
  /** Its code in the reasons table: the body's `reason`. */
  readonly reason: ErrorReasonCode;
  constructor(
    given: Reason<ErrorReasonCode>,
    /** Extra fields rendered in the body (e.g. `parameter`). Never secrets, never stack traces. */
    readonly details: Readonly<Record<string, string | number>> = {},
    options?: ErrorOptions,
  ) {
    super(given.text, options);
    this.code = REASONS[given.code].error;
    this.reason = given.code;
  }

  get status(): ErrorStatus {
    return ERROR_STATUS[this.code];
  }

  /** The JSON body a caller sees. */
  toBody(requestId?: string): Record<string, string | number> {
    const body: Record<string, string | number> = {
      error: this.code,
      reason: this.reason,
      ...this.details,
      message: this.message,
    };
    if (requestId !== undefined) body.request_id = requestId;
    return body;
  }
}

/**
 * The error of a reason in the table: its `error`, its code as `reason`, and its message.
 * `details` are the body's other fields (e.g. `parameter`); `cause` is logged, never shown.
 */
export function reasonError(
  given: Reason<ErrorReasonCode>,
  details: Readonly<Record<string, string | number>> = {},
  cause?: unknown,
): ServiceError {
  return new ServiceError(given, details, cause === undefined ? undefined : { cause });
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
