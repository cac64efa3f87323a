/**
 * A deadline combined with another signal still fires after a garbage collection: on Node 20 an
 * `AbortSignal.timeout` combined through `AbortSignal.any` does not (nodejs/node#57736), and an
 * RPC read bounded by it waited past its deadline. And a deadline is let go once the work it
 * bounds has settled (an RPC read, a scan): its timer does not stay due, holding what listens.
 *
 * "Not aborted later" is checked after a timer due well after the deadline's: Node runs timers in
 * the order they fall due, so the deadline's would have fired first however loaded the machine is.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ScanResult } from '../src/contract/schemas.js';
import { deadline, timeoutSignal, withTimeout } from '../src/deadline.js';
import type { Scanner } from '../src/scans/scanner.js';
import { ScanService } from '../src/scans/service.js';
import { createFailoverTransport, type SolanaRpc } from '../src/solana/rpc.js';
import { createMemoryCache } from '../src/state/cache/memory.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resolves with whether `signal` aborted before `boundMs` (a bound on a hang, not a timing). */
async function abortsWithin(signal: AbortSignal, boundMs: number): Promise<boolean> {
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), boundMs);
  try {
    await once(signal, 'abort', { signal: bound.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

describe('timeoutSignal', () => {
  it('fires through AbortSignal.any after a garbage collection, with a TimeoutError', async () => {
    const caller = new AbortController();
    const combined = AbortSignal.any([caller.signal, timeoutSignal(200)]);
    // Collected once the frame that made the deadline has moved on, before it is due.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.equal(await abortsWithin(combined, 30_000), true, 'the deadline fired');
    assert.equal((combined.reason as DOMException).name, 'TimeoutError');
    assert.equal(caller.signal.aborted, false);
  });

  it('keeps no process alive and aborts once', async () => {
    const signal = timeoutSignal(10);
    let aborts = 0;
    signal.addEventListener('abort', () => aborts++);
    assert.equal(await abortsWithin(signal, 30_000), true);
    assert.equal(aborts, 1);
  });
});

/** Resolves once a timer due `ms` after now has fired (and so every timer due before it). */
const afterTimersDue = (ms: number) => sleep(ms);

describe('a deadline let go', () => {
  it('a cleared deadline never aborts', async () => {
    const bound = deadline(5);
    bound.clear();
    await afterTimersDue(100);
    assert.equal(bound.signal.aborted, false);
  });

  it('withTimeout clears it once the work settles, answered or failed', async () => {
    const answered = await withTimeout(5, async (signal) => signal);
    let failedWith: AbortSignal | undefined;
    await assert.rejects(
      withTimeout(5, async (signal) => {
        failedWith = signal;
        throw new Error('refused');
      }),
      /refused/,
    );
    await afterTimersDue(100);
    assert.equal(answered.aborted, false);
    assert.equal(failedWith!.aborted, false);
  });

  it('withTimeout still aborts work that outlasts it, with a TimeoutError', async () => {
    const reason = await withTimeout(5, async (signal) => {
      assert.equal(await abortsWithin(signal, 30_000), true, 'the deadline fired');
      return signal.reason as DOMException;
    });
    assert.equal(reason.name, 'TimeoutError');
  });

  it("an RPC read's deadline is let go once the endpoint has answered", async () => {
    let seen: AbortSignal | undefined;
    const transport = createFailoverTransport(
      [
        async (request) => {
          seen = request.signal;
          const { id } = request.payload as { id: unknown };
          return { jsonrpc: '2.0', id, result: 42 } as never;
        },
      ],
      5,
    );
    await transport({ payload: { jsonrpc: '2.0', id: '1', method: 'getSlot', params: [] } });
    await afterTimersDue(100);
    assert.ok(seen, 'the endpoint was asked');
    assert.equal(seen.aborted, false, 'the read was aborted after it had answered');
  });

  it("a scan's deadline is let go once the scan has settled", async () => {
    let seen: AbortSignal | undefined;
    const scanner: Scanner = async (_subject, context) => {
      seen = context.signal;
      return { result: { risk_score: 0, flags: [] } as unknown as ScanResult };
    };
    const service = new ScanService({
      scanners: { token: scanner },
      rpc: {} as SolanaRpc,
      cache: createMemoryCache(),
      timeoutMs: 5,
    });
    await service.run('token', 'So11111111111111111111111111111111111111112');
    await afterTimersDue(100);
    assert.ok(seen, 'the scanner ran');
    assert.equal(seen.aborted, false, 'the scan was aborted after it had settled');
  });
});
