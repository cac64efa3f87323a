/**
 * The fact store as the service opens it (openState): in the embedded database by default, where
 * it survives a restart; on Redis with REDIS_URL, shared by two instances; none with
 * FACT_STORE_MAX_ENTRIES=0; in memory in the sandbox. Another process (fixtures/fact-store-child.ts) keeps a fact that
 * this one then reads: from STATE_DIR after that process ended, and through one Redis.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseConfig } from '../../../src/config.js';
import { openState } from '../../../src/state/open.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const log = { warn: () => {} };
const read = { value: '{"funder":"F"}', slot: 321, commitment: 'finalized' as const };
const CHILD = fileURLToPath(new URL('../fixtures/fact-store-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Another service process keeps `value` about `address` where `where` says, and exits. */
async function keptByAnotherProcess(where: string, address: string, value: string): Promise<void> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', CHILD, where, address, value],
    { cwd: REPO },
  );
  assert.equal(stdout.trim(), 'kept');
}

describe('the fact store openState opens', () => {
  let dir: string;
  let redis: RedisServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'facts-state-'));
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('without REDIS_URL: in the embedded database, kept across a restart', async () => {
    const config = parseConfig({ PAY_TO, STATE_DIR: join(dir, 'embedded') });
    const state = await openState(config, log);
    assert.equal(await state.facts?.put('Wallet', 'first-funding', read), true);
    await state.close();
    const again = await openState(config, log);
    try {
      assert.deepEqual(await again.facts?.get('Wallet', 'first-funding'), { value: read.value, slot: 321 });
    } finally {
      await again.close();
    }
  });

  it('with REDIS_URL: what one instance keeps, another reads', async () => {
    const config = parseConfig({ PAY_TO, REDIS_URL: redis.url });
    const [one, two] = [await openState(config, log), await openState(config, log)];
    try {
      await one.facts?.put('Signature', 'transaction', read);
      assert.deepEqual(await two.facts?.get('Signature', 'transaction'), { value: read.value, slot: 321 });
      assert.equal(await two.facts?.get('Signature', 'first-funding'), undefined);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a fact another process kept in STATE_DIR before it ended is there for this one', async () => {
    const path = join(dir, 'processes');
    await keptByAnotherProcess(path, 'SigFromChild', '{"child":1}');
    const state = await openState(parseConfig({ PAY_TO, STATE_DIR: path }), log);
    try {
      assert.deepEqual(await state.facts?.get('SigFromChild', 'transaction'), {
        value: '{"child":1}',
        slot: 77,
      });
    } finally {
      await state.close();
    }
  });

  it('a fact another process kept on Redis is read by this one', async () => {
    const state = await openState(parseConfig({ PAY_TO, REDIS_URL: redis.url }), log);
    try {
      await keptByAnotherProcess(redis.url, 'SigOnRedis', '{"child":2}');
      assert.deepEqual(await state.facts?.get('SigOnRedis', 'transaction'), {
        value: '{"child":2}',
        slot: 77,
      });
    } finally {
      await state.close();
    }
  });

  it('in the sandbox, whose chain is seeded afresh at each start: kept in memory, gone with the process', async () => {
    const config = parseConfig({ STATE_DIR: join(dir, 'sandbox') });
    assert.equal(config.mode, 'sandbox');
    const state = await openState(config, log);
    assert.equal(await state.facts?.put('Wallet', 'first-funding', read), true);
    assert.deepEqual(await state.facts?.get('Wallet', 'first-funding'), { value: read.value, slot: 321 });
    await state.close();
    const again = await openState(config, log);
    try {
      assert.equal(await again.facts?.get('Wallet', 'first-funding'), undefined);
    } finally {
      await again.close();
    }
  });

  it('FACT_STORE_MAX_ENTRIES=0 keeps none', async () => {
    const config = parseConfig({ PAY_TO, STATE_DIR: join(dir, 'none'), FACT_STORE_MAX_ENTRIES: '0' });
    const state = await openState(config, log);
    assert.equal(state.facts, undefined);
    await state.close();
  });
});
