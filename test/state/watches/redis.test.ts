import { randomUUID } from 'node:crypto';
import { after } from 'node:test';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../../src/state/redis-client.js';
import { redisWatchKeys } from '../../../src/state/redis-keys.js';
import { openRedisWatchState } from '../../../src/state/watches/redis.js';
import type { WatchStateOptions } from '../../../src/state/watches/store.js';
import type { WatchState } from '../../../src/watch/model.js';
import { startRedis } from '../../helpers/redis-server.js';
import { watchStateContract } from '../../helpers/watch-state-contract.js';

const server = await startRedis();
const clients: Redis[] = [];
after(async () => {
  for (const client of clients) client.disconnect();
  await server.stop();
});

const prefixes = new WeakMap<WatchState, string>();
const open = async (options: WatchStateOptions, prefix = `test:${randomUUID()}:`) => {
  const redis = await connectRedis(server.url);
  clients.push(redis);
  const state = await openRedisWatchState({ ...options, redis, url: server.url, prefix });
  prefixes.set(state, prefix);
  return state;
};

watchStateContract('redis (BullMQ)', {
  open: (options) => open(options),
  async reopen(state, options) {
    await state.close();
    return open(options, prefixes.get(state));
  },
  another: (state, options) => open(options, prefixes.get(state)),
  async corrupt(state, options, watchId, records) {
    const keys = redisWatchKeys(prefixes.get(state) as string);
    const redis = clients[0] as Redis;
    for (const { webhookId, raw } of records) {
      await redis.set(keys.delivery(webhookId), raw);
      await redis.sadd(keys.pending, webhookId);
      await redis.lpush(keys.log(watchId), webhookId);
    }
    // Reopened, the state queues what is pending, as at any start.
    await state.close();
    return open(options, prefixes.get(state));
  },
  async isPending(state, webhookId) {
    const keys = redisWatchKeys(prefixes.get(state) as string);
    return (await (clients[0] as Redis).sismember(keys.pending, webhookId)) === 1;
  },
});
