/**
 * The watch feature told of new watches by its state (another instance created one): the
 * triggers take the active watches again at once, and a store that cannot be read at that moment
 * is a warning in the log, never an unhandled rejection that would end the process.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config.js';
import type { SolanaRpc } from '../../src/solana/rpc.js';
import { createWatchFeature } from '../../src/watch/feature.js';
import type { WatchState } from '../../src/watch/model.js';
import { eventually } from '../helpers/watch-state-contract.js';

describe('watch feature: news of watches created elsewhere', () => {
  it('takes the active watches again; a store that fails then is logged, not thrown', async () => {
    let news: (() => void) | undefined;
    let reads = 0;
    let failing = false;
    const warnings: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    // Only what the feature calls here is real; the rest is never reached.
    const state = {
      active: async () => {
        reads++;
        if (failing) throw new Error('Redis is gone');
        return [];
      },
      watchesChanged: (listener: () => void) => {
        news = listener;
        return () => {
          news = undefined;
        };
      },
    } as unknown as WatchState;
    const config = parseConfig({ RISK_SCAN_MODE: 'sandbox', SOLANA_WS_URL: 'none' });
    const feature = createWatchFeature({
      config,
      state,
      rpc: {} as SolanaRpc,
      scanners: {},
      log: { warn: (_fields, message) => void warnings.push(message), info: () => {} },
    });
    try {
      feature.start();
      assert.ok(news, 'the feature listens to its state’s news');
      await eventually('the start-up check read the watches', () => (reads >= 1 ? true : undefined));
      const before = reads;
      news();
      await eventually('the news made it read them again', () => (reads > before ? true : undefined));
      failing = true;
      news();
      await eventually('the failed read is logged', () =>
        warnings.includes('active watches could not be read') ? true : undefined,
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      await feature.stop();
      process.off('unhandledRejection', onUnhandled);
    }
    assert.equal(news, undefined, 'stopped: no longer listening');
  });
});
