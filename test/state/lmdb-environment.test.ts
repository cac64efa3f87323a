import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useEnvironment } from '../../src/state/lmdb-environment.js';
import { openLmdbPaymentStore } from '../../src/state/payments/lmdb.js';

const CHILD = fileURLToPath(new URL('./fixtures/lmdb-shared-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** A bound for a child that needs about a second: only a frozen process comes near it. */
const FROZEN_AFTER_MS = 90_000;
const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lmdb-environment-'));
  dirs.push(dir);
  return dir;
}

/** What the child prints, or null when it gave no answer within FROZEN_AFTER_MS (then killed). */
function runChild(dir: string): Promise<{ out: string; code: number | null } | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const frozen = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, FROZEN_AFTER_MS);
    child.on('exit', (code) => {
      clearTimeout(frozen);
      resolve({ out, code });
    });
  });
}

describe('one LMDB environment per directory in a process', () => {
  it('the watch state opens and closes beside a payment store that is writing, without freezing the process', async () => {
    const ran = await runChild(await freshDir());
    assert.ok(ran !== null, 'the process froze: a second handle on the environment deadlocked');
    assert.equal(ran.code, 0);
    assert.match(ran.out, /^done \d+\n$/);
  });

  it('is one handle for every use of a directory, however it is named', async () => {
    const dir = await freshDir();
    const one = await useEnvironment(dir);
    const two = await useEnvironment(join(dir, '.', '..', basename(dir)));
    try {
      assert.equal(one.root, two.root);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('stays open while a use remains, and what the others wrote is there', async () => {
    const dir = await freshDir();
    const store = await openLmdbPaymentStore({ path: dir });
    const other = await useEnvironment(dir);
    await other.root.openDB<string, string>({ name: 'other', encoding: 'json' }).put('a', 'b');
    await other.close();
    assert.equal(other.close(), other.close(), 'closing a use twice ends it once');
    assert.deepEqual(await store.claim('k', 'h'), { state: 'claimed' });
    await store.close();
    const again = await useEnvironment(dir);
    try {
      assert.notEqual(again.root, other.root, 'the last use closed the environment');
      assert.equal(again.root.openDB<string, string>({ name: 'other', encoding: 'json' }).get('a'), 'b');
    } finally {
      await again.close();
    }
  });

  it('a use that starts while the last one closes waits, and gets a working environment', async () => {
    const dir = await freshDir();
    const first = await useEnvironment(dir);
    const closing = first.close();
    const next = await useEnvironment(dir);
    await closing;
    try {
      const db = next.root.openDB<number, string>({ name: 'n', encoding: 'json' });
      await db.put('x', 1);
      assert.equal(db.get('x'), 1);
    } finally {
      await next.close();
    }
  });
});
