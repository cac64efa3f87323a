/**
 * A watch's re-assessment: the subject's scanner run against the chain now. Never the result
 * cache, which may hold the verdict from before the change that woke the trigger.
 */

import { ScanFailedError, type Scanner, scanDeadline } from '../../scans/scanner.js';
import type { RpcServes } from '../../solana/program-search.js';
import { inScanOrder } from '../../solana/rate-shaper.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { WatchKind } from '../model.js';
import type { FreshScan } from './triggers.js';

export interface FreshScanOptions {
  readonly scanners: Readonly<Partial<Record<WatchKind, Scanner>>>;
  readonly rpc: SolanaRpc;
  readonly timeoutMs: number;
  readonly now?: () => number;
  /** What the RPC was probed to serve (pump.fun scans choose their sources by it). */
  readonly serves?: () => Promise<RpcServes | undefined>;
}

export function freshScan(options: FreshScanOptions): FreshScan {
  return async (kind, subject) => {
    const scanner = options.scanners[kind];
    if (scanner === undefined) throw new ScanFailedError(`no scanner for ${kind}`);
    const serves = kind === 'pumpfun' ? await options.serves?.() : undefined;
    // Under an RPC rate limit, behind paid scans, and behind the re-scans started before it.
    const { result } = await inScanOrder(() => {
      const { signal, clear } = scanDeadline(options.timeoutMs);
      const context = { rpc: options.rpc, now: options.now ?? Date.now, signal };
      return scanner(subject, { ...context, ...(serves ? { serves } : {}) }).finally(clear);
    });
    return result;
  };
}
