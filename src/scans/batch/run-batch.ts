/**
 * A batch of scans of one kind, read like one scan: every subject is scanned at once over one
 * merged RPC (merged-reads.ts), so the scans move in step, their identical reads are sent once and
 * their account reads of a step travel together. Each item is still its own run, served from the
 * cache or filled into it and single-flighted as `ScanService.run` does.
 */
import type { RpcTransport } from '@solana/kit';
import type { SolanaRpc } from '../../solana/rpc.js';
import { openMergedReads } from './merged-reads.js';

/** What runs one item (`R`: ScanService's ScanRun). */
export interface BatchRunner<R> {
  /** The transport under the service's RPC; absent, each subject is scanned as a single run. */
  readonly transport?: RpcTransport;
  /** Calls a batch has in flight at most (read-merger.ts); none by default. */
  readonly maxInFlight?: number;
  /** One item's run (cache, single flight, scan) over `rpc`, or over the service's own when absent. */
  runOne(subject: string, rpc?: SolanaRpc): Promise<R>;
}

/** Every subject's run, in order, each settled: none is left running on a closed batch. */
export async function runBatch<R>(
  runner: BatchRunner<R>,
  subjects: readonly string[],
): Promise<PromiseSettledResult<R>[]> {
  if (runner.transport === undefined)
    return Promise.allSettled(subjects.map((subject) => runner.runOne(subject)));
  const reads = openMergedReads(runner.transport, runner.maxInFlight);
  try {
    return await Promise.allSettled(subjects.map((subject) => runner.runOne(subject, reads.rpc)));
  } finally {
    reads.close();
  }
}
