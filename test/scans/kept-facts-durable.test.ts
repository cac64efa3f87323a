/**
 * Facts kept across scans on the durable stores, scan to scan on the related-launches cluster: what a
 * scan keeps in the embedded store is served to a scan after the store was closed and opened again
 * on its directory (a restart), and what a scan on one instance keeps on Redis is served to a scan
 * on another instance with a connection of its own. Each second scan sends fewer calls than the
 * same scan with nothing kept, same flags and score. The first scan's writes are awaited (they run
 * beside a scan, not before it ends) so the second never races them.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { subject } from '../../src/sandbox/scenarios/index.js';
import { ringName, serialName } from '../../src/sandbox/scenarios/related-launches.js';
import type { FactStore } from '../../src/scans/fact-store.js';
import { scanPumpfun } from '../../src/scans/pumpfun/index.js';
import { openLmdbFactStore } from '../../src/state/facts/lmdb.js';
import { createRedisFactStore } from '../../src/state/facts/redis.js';
import { countedScan, type Sandbox, useSandbox } from '../helpers/counted-scans.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** The store, its writes tracked: `written()` resolves once every put so far has. */
function tracked(store: FactStore) {
  const puts: Promise<boolean>[] = [];
  const facts: FactStore = {
    get: (address, fact) => store.get(address, fact),
    put: (address, fact, read) => {
      const put = store.put(address, fact, read);
      puts.push(put);
      return put;
    },
  };
  return { facts, written: () => Promise.allSettled(puts) };
}

const mintOf = (sandbox: Sandbox, name: string) => subject(sandbox.manifest, 'pumpfun', name).address;

/** The second coin with nothing kept and with `kept`, after the first was scanned on `keeping`. */
async function acrossStores(
  sandbox: Sandbox,
  coins: readonly [string, string],
  keeping: FactStore,
  reopen: () => Promise<FactStore>,
) {
  const first = tracked(keeping);
  await countedScan(sandbox, scanPumpfun, mintOf(sandbox, coins[0]), first.facts);
  await first.written();
  const kept = await reopen();
  const fresh = await countedScan(sandbox, scanPumpfun, mintOf(sandbox, coins[1]));
  const repeated = await countedScan(sandbox, scanPumpfun, mintOf(sandbox, coins[1]), kept);
  assert.deepEqual(repeated.result.flags, fresh.result.flags);
  assert.equal(repeated.result.risk_score, fresh.result.risk_score);
  assert.ok(
    repeated.calls < fresh.calls,
    `nothing kept ${JSON.stringify(fresh.methods)}; kept ${JSON.stringify(repeated.methods)}`,
  );
  return { fresh, repeated };
}

describe('facts kept across scans survive a restart and are shared through Redis', {
  timeout: 300_000,
}, () => {
  const sandbox = useSandbox();
  let redis: RedisServer;
  const clients: Redis[] = [];
  const client = () => {
    const c = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    clients.push(c);
    return c;
  };
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await redis?.stop();
  });

  it('embedded: a scan after the store is opened again serves the creator’s transactions kept before', async () => {
    const path = await mkdtemp(join(tmpdir(), 'kept-facts-restart-'));
    const beforeRestart = await openLmdbFactStore({ path });
    let again: Awaited<ReturnType<typeof openLmdbFactStore>> | undefined;
    try {
      const reopen = async () => {
        await beforeRestart.close();
        again = await openLmdbFactStore({ path });
        return again;
      };
      const { fresh, repeated } = await acrossStores(
        sandbox,
        [serialName(8), serialName(2)],
        beforeRestart,
        reopen,
      );
      assert.ok(repeated.byMethod('getTransaction') < fresh.byMethod('getTransaction'));
      assert.ok(repeated.evidence.creator_launches.sources.transactions.from_kept_facts.transactions > 0);
    } finally {
      await again?.close();
    }
  });

  it('Redis: a scan on another instance serves the ring funders’ first fundings one instance kept', async () => {
    const prefix = 'kept-facts-instances:';
    const one = createRedisFactStore({ redis: client(), prefix });
    const other = async () => createRedisFactStore({ redis: client(), prefix });
    const { fresh, repeated } = await acrossStores(sandbox, [ringName(2), ringName(11)], one, other);
    assert.ok(repeated.byMethod('getSignaturesForAddress') < fresh.byMethod('getSignaturesForAddress'));
    assert.ok(repeated.evidence.insiders.from_kept_facts.first_fundings > 0);
  });
});
