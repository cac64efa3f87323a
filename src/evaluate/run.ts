/**
 * Runs the scanners directly over labelled subjects, as an operator would: no payment, no cache.
 * A subject whose scan fails (an RPC error, a timeout) is an outcome with its error, never the
 * end of the run.
 */
import type { ScanId } from '../catalog.js';
import { type Scanner, scanDeadline } from '../scans/scanner.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { LabelledSubject } from './labels.js';
import type { Outcome, Scored } from './metrics.js';

export interface RunOptions {
  readonly scanners: Readonly<Record<ScanId, Scanner>>;
  readonly rpc: SolanaRpc;
  readonly now?: () => number;
  /** Longest one scan may take. */
  readonly timeoutMs: number;
  /** Scans in flight at once (a public RPC rate-limits more). */
  readonly concurrency?: number;
}

/** The first line of an error's message: what the report shows. */
function describe(e: unknown): string {
  const text = e instanceof Error ? `${e.message || e.name}` : String(e);
  return text.split('\n')[0]!.slice(0, 300);
}

async function scanOne(subject: LabelledSubject, options: RunOptions): Promise<Outcome> {
  const { signal, clear } = scanDeadline(options.timeoutMs);
  const scan = options.scanners[subject.endpoint](subject.address, {
    rpc: options.rpc,
    now: options.now ?? Date.now,
    signal,
  });
  // A scanner that ignores its signal still cannot hold the run past the deadline.
  const deadline = new Promise<never>((_, reject) =>
    signal.addEventListener(
      'abort',
      () => reject(new Error(`the scan took longer than ${options.timeoutMs} ms`)),
      { once: true },
    ),
  );
  try {
    const { result } = await Promise.race([scan, deadline]);
    return { ok: true, score: result.risk_score, confidence: result.confidence, flags: result.flags };
  } catch (e) {
    return { ok: false, error: describe(e) };
  } finally {
    clear();
  }
}

/** Every subject scored, in input order. */
export async function scoreSubjects(
  subjects: readonly LabelledSubject[],
  options: RunOptions,
): Promise<Scored[]> {
  const outcomes: Outcome[] = new Array(subjects.length);
  let next = 0;
  const worker = async () => {
    while (next < subjects.length) {
      const i = next++;
      outcomes[i] = await scanOne(subjects[i]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return subjects.map((subject, i) => ({ subject, outcome: outcomes[i]! }));
}
