/**
 * Transports for scanner tests. Real RPC answers come from a recording or from the sandbox
 * chain; these wrappers only count round trips or inject faults.
 */
import type { RpcTransport } from '@solana/kit';

export interface CountingTransport {
  readonly transport: RpcTransport;
  /** Methods of every JSON-RPC call sent, in order (a batch counts each call). */
  readonly calls: string[];
  /** Sequential round trips: the longest chain of calls each sent after the one before it finished. */
  roundTrips(): number;
  /** Every request sent, with its round (benchmarks replay them: bench/scan-latency.ts). */
  readonly sent: { readonly round: number; readonly payload: unknown }[];
  reset(): void;
}

/**
 * Counts calls and sequential round trips. A call's round is one more than the highest round among
 * the calls that had finished when it was sent: calls sent together share a round, and a read that
 * needed an answer comes a round after it. A call still in flight never merges later rounds into
 * its own (a slow read that nothing waits for does not hide the round sent beside it), and a call
 * that nothing waited for never adds a round (it shares the round it was sent in).
 */
export function countingTransport(inner: RpcTransport): CountingTransport {
  const calls: string[] = [];
  const sent: CountingTransport['sent'] = [];
  let finished = 0;
  let deepest = 0;
  const transport = (async (request) => {
    const payload = request.payload as { method?: string } | { method?: string }[];
    for (const p of Array.isArray(payload) ? payload : [payload]) calls.push(String(p.method));
    const round = finished + 1;
    sent.push({ round, payload: request.payload });
    deepest = Math.max(deepest, round);
    try {
      return await inner(request);
    } finally {
      finished = Math.max(finished, round);
    }
  }) as RpcTransport;
  return {
    transport,
    calls,
    roundTrips: () => deepest,
    sent,
    reset: () => {
      calls.length = 0;
      sent.length = 0;
      finished = 0;
      deepest = 0;
    },
  };
}

export interface HoldingTransport {
  readonly transport: RpcTransport;
  /** What released the held answers: a call of a later round, or the scan waiting on them. */
  releasedBy(): 'a later round' | 'the scan waited' | null;
}

/**
 * Holds the answers of the calls `held` picks until the scan sends a call of a later round (it
 * went on without them) or has had nothing else in flight for 50 turns of the event loop (it is
 * waiting for them: the scans' own work between rounds is synchronous hashing and decoding, done
 * in a handful of turns). No clock is involved. One scan per transport.
 */
export function holdingTransport(
  inner: RpcTransport,
  held: (method: string, params: unknown) => boolean,
): HoldingTransport {
  let finished = 0;
  let heldRound = 0;
  let heldPending = 0;
  let others = 0;
  let releasedBy: ReturnType<HoldingTransport['releasedBy']> = null;
  const waiting: (() => void)[] = [];
  const release = (why: NonNullable<typeof releasedBy>) => {
    releasedBy ??= why;
    for (const resume of waiting.splice(0)) resume();
  };
  const releaseIfWaitedOn = async () => {
    for (let turn = 0; turn < 50; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (releasedBy !== null || others > 0) return;
    }
    release('the scan waited');
  };
  const transport = (async (request) => {
    const { method: name, params } = request.payload as { method?: string; params?: unknown };
    const method = String(name);
    const round = finished + 1;
    if (!held(method, params)) {
      if (heldPending > 0 && round > heldRound) release('a later round');
      others++;
      try {
        return await inner(request);
      } finally {
        others--;
        finished = Math.max(finished, round);
        if (others === 0 && heldPending > 0) void releaseIfWaitedOn();
      }
    }
    heldRound = Math.max(heldRound, round);
    heldPending++;
    try {
      const answer = await inner(request);
      if (releasedBy === null) {
        await new Promise<void>((resume) => {
          waiting.push(resume);
          if (others === 0) void releaseIfWaitedOn();
        });
      }
      return answer;
    } finally {
      heldPending--;
      finished = Math.max(finished, round);
    }
  }) as RpcTransport;
  return { transport, releasedBy: () => releasedBy };
}

/** Adds latency to every call, to measure how a scan's time scales with round trips. */
export function delayedTransport(inner: RpcTransport, ms: number): RpcTransport {
  return (async (request) => {
    await new Promise((r) => setTimeout(r, ms));
    return inner(request);
  }) as RpcTransport;
}

/** Fails calls whose method (and parameters) match, as a refusing or broken RPC would. */
export function failingTransport(
  inner: RpcTransport,
  fails: (method: string, params: readonly unknown[]) => boolean,
): RpcTransport {
  return (async (request) => {
    const payload = request.payload as { method?: string; params?: unknown[] };
    if (fails(String(payload.method), payload.params ?? []))
      throw new Error(`injected failure: ${payload.method}`);
    return inner(request);
  }) as RpcTransport;
}

/** Answers from recorded JSON-RPC results keyed by `method` + JSON of the first parameter. */
export function replayTransport(recordings: Readonly<Record<string, unknown>>): RpcTransport {
  return (async (request) => {
    const { id, method, params } = request.payload as { id: number; method: string; params: unknown[] };
    const key = `${method} ${JSON.stringify(params?.[0] ?? null)}`;
    if (!(key in recordings)) throw new Error(`no recording for ${key}`);
    return { jsonrpc: '2.0', id, result: recordings[key] };
  }) as RpcTransport;
}

/**
 * Pads every getSignaturesForAddress page to the limit asked for with copies of its oldest
 * entry: the full page an old, busy mint answers (its creation out of reach), on a young chain.
 */
export function fullHistoryTransport(inner: RpcTransport): RpcTransport {
  return (async (request) => {
    const payload = request.payload as { method?: string; params?: unknown[] };
    const response = (await inner(request)) as { result?: unknown };
    if (payload.method !== 'getSignaturesForAddress' || !Array.isArray(response.result)) return response;
    const limit = (payload.params?.[1] as { limit?: number } | undefined)?.limit ?? 1000;
    const page = [...response.result];
    const oldest = page.at(-1);
    while (oldest !== undefined && page.length < limit) page.push(oldest);
    return { ...response, result: page };
  }) as RpcTransport;
}
