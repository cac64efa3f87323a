import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useEnvironment } from '../../../src/state/lmdb-environment.js';
import {
  LMDB_PAYMENTS_DB,
  openLmdbPaymentStore,
  SWEEP_EVERY_WRITES,
} from '../../../src/state/payments/lmdb.js';
import type { PaymentStore } from '../../../src/x402/payment-store.js';
import {
  paymentStoreContract,
  pending,
  response,
  type StoreTiming,
} from '../../helpers/payment-store-contract.js';

const CHILD = fileURLToPath(new URL('../fixtures/lmdb-store-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const dirs: string[] = [];
const paths = new WeakMap<PaymentStore, string>();

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lmdb-payment-store-'));
  dirs.push(dir);
  return dir;
}

async function openAt(path: string, timing: StoreTiming): Promise<PaymentStore> {
  const store = await openLmdbPaymentStore({ path, ...timing });
  paths.set(store, path);
  return store;
}

paymentStoreContract('embedded (lmdb)', {
  open: async (timing) => openAt(await freshDir(), timing),
  reopen: async (store, timing) => {
    await store.close();
    return openAt(paths.get(store)!, timing);
  },
});
// Registered after the contract's own hook, which closes its stores first.
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The keys on disk, read past the store (which would expire them on access). */
async function keysOnDisk(path: string): Promise<string[]> {
  const environment = await useEnvironment(path);
  try {
    const db = environment.root.openDB<unknown, string>({ name: LMDB_PAYMENTS_DB });
    return Array.from(db.getKeys()).sort();
  } finally {
    await environment.close();
  }
}

function child(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/** Everything `proc` prints until `line` appears (rejects if it exits first). */
function waitFor(proc: ChildProcess, line: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.setEncoding('utf8');
    proc.stdout?.on('data', (chunk: string) => {
      out += chunk;
      if (line.test(out)) resolve(out);
    });
    proc.once('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before ${line}`)));
  });
}

/** Reads `proc`'s output a line at a time (rejects if it exits first). */
function lines(proc: ChildProcess): () => Promise<string> {
  const reader = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  return async () => {
    const next = await reader.next();
    if (next.done) throw new Error(`child exited (${proc.exitCode ?? proc.signalCode}) before a line`);
    return next.value;
  };
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

describe('embedded (lmdb) payment store: durability', () => {
  it('what a process recorded before it was killed (SIGKILL) is there for the next one', async () => {
    const path = await freshDir();
    const proc = child(['crash', path]);
    await waitFor(proc, /ready/);
    proc.kill('SIGKILL');
    await exited(proc);
    const time = { now: 0 };
    const store = await openAt(path, { inFlightTtlMs: 1000, settledTtlMs: 100_000, now: () => time.now });
    try {
      assert.deepEqual(await store.claim('settled', 'next'), { state: 'settled', response });
      assert.deepEqual(
        await store.claim('sending', 'next'),
        { state: 'in_flight' },
        'still the dead holder’s',
      );
      time.now = 1001;
      const kept = await store.claim('sending', 'next');
      assert.equal(kept.state, 'pending', 'the kept result comes back once the claim expires');
      assert.deepEqual(kept.state === 'pending' && kept.pending, pending('sig', '{"kept":true}'));
    } finally {
      await store.close();
    }
  });

  it('two processes racing 50 claims of one payment: exactly one wins, every time', async () => {
    const path = await freshDir();
    const procs = [child(['race', path, 'p1']), child(['race', path, 'p2'])];
    try {
      const outputs = procs.map((p) => lines(p));
      for (const out of outputs) assert.equal(await out(), 'ready');
      for (let round = 0; round < 10; round++) {
        // Both get the key at once, so their claims land together rather than one after the other.
        for (const p of procs) p.stdin?.write(`key-${round}\n`);
        const results = await Promise.all(outputs.map(async (out) => JSON.parse(await out())));
        const total = (field: string) => results.reduce((sum, r) => sum + r[field], 0);
        assert.deepEqual([total('claimed'), total('inFlight')], [1, 49], `round ${round}`);
      }
    } finally {
      for (const p of procs) p.stdin?.end();
      await Promise.all(procs.map(exited));
    }
  });

  it('two stores open on one directory in one process see each other’s claims', async () => {
    const path = await freshDir();
    const [a, b] = await Promise.all([openAt(path, { now: Date.now }), openAt(path, { now: Date.now })]);
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).claim('k', `h${i}`)),
      );
      assert.equal(outcomes.filter((o) => o.state === 'claimed').length, 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('embedded (lmdb) payment store: expired entries', () => {
  const timing = (time: { now: number }) => ({
    inFlightTtlMs: 1000,
    settledTtlMs: 10_000,
    now: () => time.now,
  });

  it('are swept when a store opens; a claim’s kept result stays, as pending', async () => {
    const path = await freshDir();
    const time = { now: 0 };
    const store = await openAt(path, timing(time));
    for (const k of ['settled', 'abandoned', 'sending']) await store.claim(k, 'a');
    await store.record('settled', 'a', { state: 'settled', response });
    await store.markSending('sending', 'a', pending(null));
    await store.close();
    time.now = 5000;
    await (await openAt(path, timing(time))).close();
    assert.deepEqual(await keysOnDisk(path), ['sending', 'settled']);
    time.now = 20_000;
    await (await openAt(path, timing(time))).close();
    assert.deepEqual(await keysOnDisk(path), []);
  });

  it(`are swept while the store runs, every ${SWEEP_EVERY_WRITES} writes`, async () => {
    const path = await freshDir();
    const time = { now: 0 };
    const store = await openAt(path, timing(time));
    for (let i = 0; i < 10; i++) await store.claim(`old-${i}`, 'a');
    time.now = 5000;
    for (let i = 0; i < SWEEP_EVERY_WRITES; i++) await store.claim(`new-${i}`, 'b');
    await store.close();
    const keys = await keysOnDisk(path);
    assert.equal(keys.filter((k) => k.startsWith('old-')).length, 0, 'expired claims swept');
    assert.equal(keys.length, SWEEP_EVERY_WRITES);
  });

  it('are all swept on open, however many there are', async () => {
    const path = await freshDir();
    const time = { now: 0 };
    const store = await openAt(path, timing(time));
    await Promise.all(Array.from({ length: 1234 }, (_, i) => store.claim(`k-${i}`, 'a')));
    await store.close();
    time.now = 5000;
    await (await openAt(path, timing(time))).close();
    assert.deepEqual(await keysOnDisk(path), []);
  });

  it('are removed when asked for', async () => {
    const path = await freshDir();
    const time = { now: 0 };
    const store = await openAt(path, timing(time));
    await store.claim('k', 'a');
    time.now = 5000;
    await store.release('k', 'a');
    await store.close();
    assert.deepEqual(await keysOnDisk(path), []);
  });
});

describe('embedded (lmdb) payment store: health', () => {
  it('check rejects with the reason once the store is closed', async () => {
    const path = await freshDir();
    const store = await openAt(path, { now: Date.now });
    await store.close();
    await assert.rejects(store.check(), /payment store at .* is closed/);
    await assert.rejects(store.claim('k', 'a'), /closed/);
  });

  it('opening where a file stands fails with the reason', async () => {
    const path = join(await freshDir(), 'not-a-directory');
    await writeFile(path, 'x');
    await assert.rejects(
      openLmdbPaymentStore({ path }),
      /EEXIST|ENOTDIR|not a directory|file already exists/i,
    );
  });

  it('creates a missing directory, nested', async () => {
    const path = join(await freshDir(), 'state', 'payments.db');
    const store = await openAt(path, { now: Date.now });
    await store.check();
    await store.close();
    assert.deepEqual(await keysOnDisk(path), []);
  });
});
