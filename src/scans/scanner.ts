import { setMaxListeners } from 'node:events';
/**
 * What a scanner is: subject in, ScanResult out. Each subject's folder has `facts.ts` (the
 * only code that talks to RPC) and `assess.ts` (pure: facts → ScanResult).
 */
import type { ScanResult } from '../contract/schemas.js';
import { type Deadline, deadline } from '../deadline.js';
import { errorMessage } from '../errors.js';
import type { RpcServes } from '../solana/program-search.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { FactStore } from './fact-store.js';
import type { VerifiedRegistry } from './verified/model.js';

export interface ScanContext {
  readonly rpc: SolanaRpc;
  /** Wall-clock time in ms, injected so assessments are reproducible. */
  readonly now: () => number;
  /** Aborted when the request is abandoned or the scan runs out of time. */
  readonly signal?: AbortSignal;
  /** What the RPC was probed to serve beyond the standard reads; absent when not probed (then not relied on). */
  readonly serves?: RpcServes;
  /**
   * What the RPC serves, probed when first asked: for a scan that needs it for some subjects only
   * (/scan/token, a pump.fun mint's creator history), so no other subject waits for the probe.
   */
  readonly askServes?: () => Promise<RpcServes | undefined>;
  /** The copy of the verified-token registry to judge impersonation by; the bundled one when absent. */
  readonly verified?: VerifiedRegistry;
  /** Facts that cannot change, kept by earlier scans (fact-store.ts): consulted before reading them. */
  readonly facts?: FactStore;
}

export interface ScanOutcome {
  readonly result: ScanResult;
  /** Overrides the endpoint's cache TTL (e.g. a transaction that is not finalized yet). */
  readonly cacheTtlSeconds?: number;
}

/** Thrown when a scan cannot produce any answer (e.g. the RPC is unreachable): a 500. */
export class ScanFailedError extends Error {
  override readonly name = 'ScanFailedError';
}

/** Thrown when some subjects of a batch cannot be scanned: the batch is a 500 naming them. */
export class BatchScanFailedError extends ScanFailedError {
  constructor(
    /** The subjects that could not be scanned, in the batch's order. */
    readonly subjects: readonly string[],
    options?: ErrorOptions,
  ) {
    super(`could not scan ${subjects.join(', ')}`, options);
  }
}

export type Scanner = (subject: string, context: ScanContext) => Promise<ScanOutcome>;

/**
 * The deadline a scan passes to every read it makes; cleared once the scan has settled. Each
 * request in flight listens on it, and a token scan may have a dozen at once (holders, launch
 * transactions, simulation): past node's default of 10 listeners it would print a leak warning on
 * every scan.
 */
export function scanDeadline(timeoutMs: number): Deadline {
  const bound = deadline(timeoutMs);
  setMaxListeners(100, bound.signal);
  return bound;
}

/** The scan's failure when the RPC could not be read at all (a 500 that says why). */
export function rpcReadFailed(e: unknown): ScanFailedError {
  return new ScanFailedError(`the Solana RPC could not be read: ${errorMessage(e)}`);
}
