/**
 * A read bound whose clock stops while its reads wait in a queue (src/deadline.ts,
 * queueAwareTimeout): the time queued is not taken from it, the time before and after is.
 * Timers fire in the order they fall due, so the checks below do not depend on load.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { anySignal, queueAwareTimeout, whileQueued } from '../src/deadline.js';

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the bound to fire: its own timer keeps no process alive (as AbortSignal.timeout's). */
async function fired(signal: AbortSignal): Promise<void> {
  const alive = setInterval(() => {}, 1_000);
  try {
    await once(signal, 'abort');
  } finally {
    clearInterval(alive);
  }
}

describe('queueAwareTimeout', () => {
  it('does not fire while a read it bounds waits in a queue, and fires once it has run its time', async () => {
    const bound = queueAwareTimeout(50);
    let leave = () => {};
    const queued = whileQueued(bound, () => new Promise<void>((resolve) => (leave = resolve)));
    await after(200);
    assert.equal(bound.aborted, false);
    leave();
    await queued;
    await fired(bound);
    assert.equal((bound.reason as DOMException).name, 'TimeoutError');
  });

  it('stops for a queue through a signal made of it and another (a scan deadline and a read bound)', async () => {
    const scan = new AbortController();
    const bound = queueAwareTimeout(50);
    const combined = anySignal([scan.signal, bound]);
    let leave = () => {};
    const queued = whileQueued(combined, () => new Promise<void>((resolve) => (leave = resolve)));
    await after(200);
    assert.equal(combined.aborted, false);
    leave();
    await queued;
    await fired(combined);
  });

  it('fires as a plain timeout when nothing it bounds is queued', async () => {
    const bound = queueAwareTimeout(50);
    await after(200);
    assert.equal(bound.aborted, true);
  });
});
