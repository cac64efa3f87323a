/**
 * A deterministic count of round trips, for tests and the bench: calls are held while the callers
 * are still asking, and every call asked while the event loop was busy is sent together as one
 * wave once it has been idle for a while (a number of turns, no clock). A wave's answers are
 * handed back together once the last one is in, so the calls they lead to are asked together
 * again, however long each took. Round trips = waves; they do not depend on timing or load, and
 * many scans moving in step (a batch) count as one scan.
 *
 * Time a call spends held (asked but not sent yet, waiting for a turn in its wave, or answered but
 * not handed back) is queue time: it is not taken from a read bound the caller set (deadline.ts,
 * whileQueued). Only the time its own call is in flight is.
 */
import type { RpcTransport } from '@solana/kit';
import { whileQueued } from '../../src/deadline.js';

/** Turns of the event loop without a new call after which the callers are taken to be waiting. */
const IDLE_TURNS = 30;

export interface WaveTransport {
  readonly transport: RpcTransport;
  /** Methods of the calls sent, in the order asked. */
  readonly calls: string[];
  /** Waves sent so far (round trips). */
  waves(): number;
  /** Account keys asked for in the getAccountInfo and getMultipleAccounts sent. */
  accountKeys(): number;
  reset(): void;
}

type Request = Parameters<RpcTransport>[0];
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What a held call learns when its wave is sent: its own answer, and when the whole wave is in. */
interface Sent {
  readonly own: Promise<Settled>;
  readonly waveDone: Promise<unknown>;
}

interface Held {
  readonly request: Request;
  send(sent: Sent): void;
}

/**
 * `inFlight`: how many calls of a wave the RPC behind is handed at once (the sandbox's RPC answers
 * one at a time, in the test's own process: a wave of two hundred would make the last wait for all
 * the others). A call waiting for its turn is queued; the wave still counts as one round trip.
 */
export function waveTransport(inner: RpcTransport, inFlight = 8): WaveTransport {
  const calls: string[] = [];
  let held: Held[] = [];
  let waves = 0;
  let asked = 0;
  let keys = 0;
  let stepping = false;

  const idle = async () => {
    let seen = -1;
    for (let quiet = 0; quiet < IDLE_TURNS; quiet++) {
      if (asked !== seen) [seen, quiet] = [asked, 0];
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const step = async () => {
    stepping = true;
    for (;;) {
      await idle();
      if (held.length === 0) break;
      const wave = held;
      held = [];
      waves += 1;
      await sendWave(wave, inner, inFlight);
    }
    stepping = false;
  };

  const transport = (async (request: Request) => {
    calls.push(String((request.payload as { method?: unknown }).method));
    keys += accountKeysOf(request.payload);
    asked += 1;
    const sent = await whileQueued(
      request.signal,
      () =>
        new Promise<Sent>((send) => {
          held.push({ request, send });
          if (!stepping) void step();
        }),
    );
    // In flight, its bound runs; answered, it waits for the rest of its wave as in a queue.
    const answer = await sent.own;
    await whileQueued(request.signal, () => sent.waveDone);
    if (!answer.ok) throw answer.error;
    return answer.value;
  }) as RpcTransport;

  return {
    transport,
    calls,
    waves: () => waves,
    accountKeys: () => keys,
    reset: () => {
      calls.length = 0;
      waves = 0;
      keys = 0;
    },
  };
}

/** Sends a wave's calls, `inFlight` at a time; each caller gets the wave's end with its own answer. */
async function sendWave(wave: readonly Held[], inner: RpcTransport, inFlight: number): Promise<void> {
  let ended = () => {};
  const waveDone = new Promise<void>((resolve) => {
    ended = resolve;
  });
  let next = 0;
  const lane = async () => {
    while (next < wave.length) {
      const held = wave[next++]!;
      const own = settle(inner, held.request);
      held.send({ own, waveDone });
      await own;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, wave.length) }, lane));
  ended();
}

function settle(inner: RpcTransport, request: Request): Promise<Settled> {
  return inner(request).then(
    (value): Settled => ({ ok: true, value }),
    (error: unknown): Settled => ({ ok: false, error }),
  );
}

function accountKeysOf(payload: unknown): number {
  const { method, params } = payload as { method?: unknown; params?: unknown[] };
  if (method === 'getAccountInfo') return 1;
  return method === 'getMultipleAccounts' && Array.isArray(params?.[0]) ? params[0].length : 0;
}
