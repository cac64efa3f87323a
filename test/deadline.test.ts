/**
 * A deadline combined with another signal still fires after a garbage collection: on Node 20 an
 * `AbortSignal.timeout` combined through `AbortSignal.any` does not (nodejs/node#57736), and an
 * RPC read bounded by it waited past its deadline.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { timeoutSignal } from '../src/deadline.js';

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
