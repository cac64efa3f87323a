import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { WatchState } from '../../src/watch/model.js';
import { openLmdbWatchState } from '../../src/watch/state/lmdb-watch-state.js';
import { watchStateContract } from '../helpers/watch-state-contract.js';

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
});
