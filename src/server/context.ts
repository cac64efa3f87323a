/**
 * What the request frame (frame.ts) hands to every handler. It travels in Hono's `env`
 * bindings rather than in context variables, because the frame wraps the app instead of
 * running as middleware (see frame.ts for why).
 */
export interface RequestFrame {
  readonly requestId: string;
  /** Extra fields for this request's log line (e.g. payment fingerprint, scan outcome). */
  readonly logFields: Record<string, unknown>;
  /** The route pattern that answered, for the log line; null when none matched. */
  route: string | null;
  /** Whether the answer was built by respond.ts and so already carries the frame's headers. */
  headersApplied: boolean;
}

export type AppEnv = {
  Bindings: { frame: RequestFrame };
};
