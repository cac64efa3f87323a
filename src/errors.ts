/**
 * The service's error taxonomy: one code, one HTTP status, mapped in one place.
 * Every status here means "not charged": the payment gate settles only after a delivered result.
 * 402 answers are not errors of this kind; they carry the x402 PaymentRequired body.
 */
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

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields rendered in the body (e.g. `parameter`). Never secrets, never stack traces. */
    readonly details: Readonly<Record<string, string | number>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
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

/** Name-based so it holds even if two copies of this module are loaded. */
export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof Error && e.name === 'ServiceError';
}

/** The one place an unknown throwable becomes a typed error; the cause is logged, never shown. */
export function toServiceError(e: unknown): ServiceError {
  if (isServiceError(e)) return e;
  return new ServiceError(
    'internal_error',
    'The service hit an unexpected error; nothing was charged.',
    {},
    {
      cause: e,
    },
  );
}

/** An unknown throwable's message, for a reason or a log line (what a caught RPC error says). */
export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
