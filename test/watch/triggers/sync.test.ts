/**
 * WatchTriggers.sync asked while a sync runs: the running one may have read the active watches
 * before a watch was created, so another sync follows it and the new watch is taken. A watch whose
 * kept verdict cannot be read costs its own subject only; a sync that fails does not stop the stop.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScanResult } from '../../../src/contract/schemas.js';
import type { Watch } from '../../../src/watch/model.js';
import { WatchTriggers } from '../../../src/watch/triggers/index.js';

const watch = {
  id: 'w_new',
  kind: 'wallet',
  subject: 'So11111111111111111111111111111111111111112',
  webhook: 'http://127.0.0.1:1/hook',
  hours: 1,
  createdAt: 0,
  expiresAt: Number.MAX_SAFE_INTEGER,
  status: 'active',
  secret: 'whsec_dGVzdA==',
  latest: { risk_score: 0, flags: [], confidence: 1, summary: '', recommendation: '', reasoning: [] },
  version: 0,
} satisfies Watch as Watch;

describe('watch triggers: sync', () => {
  it('a sync asked while one runs runs once more after it, and takes the watch created meanwhile', async () => {
    let release = () => {};
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reads: (readonly Watch[])[] = [];
    let created = false;
    const triggers = new WatchTriggers({
      // The first read is taken before the watch exists, and answers only once it does.
      watches: async () => {
        const now = created ? [watch] : [];
        reads.push(now);
        if (reads.length === 1) await blocked;
        return now;
      },
      rescan: async (): Promise<ScanResult> => assert.fail('a sync scans nothing'),
      onChange: async () => {},
      feed: null,
      rescanBudget: 1,
      debounceMs: 0,
    });
    const running = triggers.sync();
    created = true;
    const asked = triggers.sync();
    const askedToo = triggers.sync();
    release();
    await Promise.all([running, asked, askedToo]);
    assert.equal(triggers.subjectCount, 1, 'the new watch is followed');
    assert.equal(reads.length, 2, 'one more sync for both who asked meanwhile');
    await triggers.stop();
  });

  const triggersOn = (watches: () => Promise<readonly Watch[]>, errors: string[] = []) =>
    new WatchTriggers({
      watches,
      rescan: async (): Promise<ScanResult> => assert.fail('a sync scans nothing'),
      onChange: async () => {},
      onError: (_error, key) => errors.push(key),
      feed: null,
      rescanBudget: 1,
      debounceMs: 0,
    });

  it('a watch whose verdict cannot be read is passed over (reported); the others are followed', async () => {
    const unreadable = {
      ...watch,
      id: 'w_bad',
      subject: 'Bad1111111111111111111111111111111111111111',
      latest: undefined,
    };
    const errors: string[] = [];
    const triggers = triggersOn(async () => [unreadable as unknown as Watch, watch], errors);
    await triggers.sync();
    assert.equal(triggers.subjectCount, 1, 'the readable watch is followed');
    assert.deepEqual(errors, [`wallet:${unreadable.subject}`]);
    await triggers.stop();
  });

  it('stop() ends even while a sync fails (the store down at shutdown)', async () => {
    let fail = (_e: Error) => {};
    const triggers = triggersOn(
      () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    );
    const failing = triggers.sync().catch((e: Error) => e.message);
    const stopped = triggers.stop();
    fail(new Error('Redis is down'));
    await stopped;
    assert.equal(await failing, 'Redis is down', 'its asker is told');
  });
});
