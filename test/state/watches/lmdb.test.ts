import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { useEnvironment } from '../../../src/state/lmdb-environment.js';
import { openLmdbWatchState } from '../../../src/state/watches/lmdb.js';
import type { WatchState } from '../../../src/watch/model.js';
import { watchStateContract } from '../../helpers/watch-state-contract.js';

const dirs: string[] = [];
const paths = new WeakMap<WatchState, string>();
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

watchStateContract('embedded (lmdb)', {
  async open(options) {
    const dir = await mkdtemp(join(tmpdir(), 'lmdb-watch-state-'));
    dirs.push(dir);
    const state = await openLmdbWatchState(dir, options);
    paths.set(state, dir);
    return state;
  },
  async reopen(state, options) {
    const dir = paths.get(state) as string;
    await state.close();
    const again = await openLmdbWatchState(dir, options);
    paths.set(again, dir);
    return again;
  },
  async corrupt(state, options, watchId, records) {
    const dir = paths.get(state) as string;
    await state.close();
    const environment = await useEnvironment(dir);
    const { root } = environment;
    const raw = root.openDB<Buffer, string>({ name: 'watch-deliveries', encoding: 'binary' });
    const pending = root.openDB({ name: 'watch-pending', encoding: 'json' });
    const log = root.openDB<string[], string>({ name: 'watch-log', encoding: 'json' });
    await root.transaction(() => {
      for (const { webhookId, raw: text } of records) {
        raw.put(webhookId, Buffer.from(text, 'utf8'));
        pending.put(webhookId, { due: 0, leaseUntil: 0 });
        log.put(watchId, [webhookId, ...(log.get(watchId) ?? [])]);
      }
    });
    await environment.close();
    const again = await openLmdbWatchState(dir, options);
    paths.set(again, dir);
    return again;
  },
  async isPending(state, webhookId) {
    // The running state's own environment: a second handle on it could freeze the process.
    const environment = await useEnvironment(paths.get(state) as string);
    try {
      const pending = environment.root.openDB({ name: 'watch-pending', encoding: 'json' });
      return pending.get(webhookId) !== undefined;
    } finally {
      await environment.close();
    }
  },
});
