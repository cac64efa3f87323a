/**
 * The RPC a batch's scans share: one read merger (src/solana/read-merger.ts) over the service's
 * transport, made for the batch and closed with it (reads still in flight for it are then dropped).
 */
import type { RpcTransport } from '@solana/kit';
import { createLeanSolanaRpc } from '../../solana/lean-responses.js';
import { createReadMerger, type ReadMerger } from '../../solana/read-merger.js';
import type { SolanaRpc } from '../../solana/rpc.js';

export interface MergedReads {
  readonly rpc: SolanaRpc;
  /** Calls sent for the batch, and calls its scans asked for. */
  counts: ReadMerger['counts'];
  close(): void;
}

export function openMergedReads(transport: RpcTransport, maxInFlight?: number): MergedReads {
  const open = new AbortController();
  const merger = createReadMerger(transport, {
    signal: open.signal,
    ...(maxInFlight === undefined ? {} : { maxInFlight }),
  });
  return {
    // The service's own RPC over the merger: kit's, but for its walk of transaction answers.
    rpc: createLeanSolanaRpc(merger.transport),
    counts: merger.counts,
    close: () => open.abort(new Error('the batch has ended')),
  };
}
