/** Typed per-request variables shared by middleware and handlers. */
export type AppEnv = {
  Variables: {
    requestId: string;
    /** Headers every response carries (CORS, request id), merged in by respond.ts. */
    baseHeaders: Record<string, string>;
    /** Extra fields for this request's log line (e.g. payment fingerprint, scan outcome). */
    logFields: Record<string, unknown>;
  };
};
