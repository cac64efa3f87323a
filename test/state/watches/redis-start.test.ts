/**
 * Opening the Redis watch state when its delivery queue cannot start: the caller is told why,
 * and nothing it opened is left open (no connection, no worker polling). The faults are real:
 * Redis users whose ACL refuses what BullMQ or the state needs, a wrong password, and a server
 * that accepts connections and never answers.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { generateKeyPem, signingKeyFromPem } from '../../../src/signing/key.js';
import { connectRedis } from '../../../src/state/redis-client.js';
import { openRedisWatchState } from '../../../src/state/watches/redis.js';
import { type RedisServer, startRedis } from '../../helpers/redis-server.js';
import { eventually } from '../../helpers/watch-state-contract.js';

const options = {
  mode: 'sandbox' as const,
  signingKey: signingKeyFromPem(generateKeyPem()),
  maxWatches: 10,
  maxWatchesPerSubject: 10,
};

describe('the Redis watch state when its delivery queue cannot start', () => {
  let server: RedisServer;
  let admin: Redis;
  const clients: Redis[] = [];
  const as = (user: string, password = 'pw') =>
    server.url.replace('redis://', `redis://${user}:${password}@`);
  const connect = async (url: string) => {
    const made = await connectRedis(url);
    clients.push(made);
    return made;
  };
  /** Connections to the server other than the test's own. */
  const others = async () => {
    const ours = new Set(await Promise.all(clients.map((c) => c.client('ID'))));
    const list = String(await admin.client('LIST'));
    return list
      .split('\n')
      .filter((line) => line.startsWith('id='))
      .filter((line) => !ours.has(Number(/^id=(\d+)/.exec(line)?.[1])));
  };
  const noneLeft = () =>
    eventually('every connection closed', async () => ((await others()).length === 0 ? true : undefined));

  before(async () => {
    server = await startRedis();
    admin = await connect(server.url);
    await admin.call('ACL', 'SETUSER', 'noinfo', 'on', '>pw', '~*', '&*', '+@all', '-info');
    await admin.call('ACL', 'SETUSER', 'nosmembers', 'on', '>pw', '~*', '&*', '+@all', '-smembers');
  });
  after(async () => {
    for (const client of clients) client.disconnect();
    await server.stop();
  });

  const open = (redis: Redis, url: string, more: { startTimeoutMs?: number } = {}) =>
    openRedisWatchState({ ...options, redis, url, prefix: `test:${randomUUID()}:`, ...more });

  it('BullMQ refused a command it needs to start (ACL): a clear error, nothing left open', async () => {
    await assert.rejects(
      open(admin, as('noinfo')),
      /watch delivery queue could not start on Redis: .*NOPERM/,
    );
    await noneLeft();
  });

  it('a wrong password for the queue: a clear error, nothing left open', async () => {
    await assert.rejects(
      open(admin, as('noinfo', 'wrong')),
      /could not start on Redis: .*(WRONGPASS|NOAUTH)/,
    );
    await noneLeft();
  });

  it('the state’s own connection refused re-queueing the pending deliveries: the queue is closed', async () => {
    const limited = await connect(as('nosmembers'));
    await assert.rejects(open(limited, server.url), /could not start on Redis: .*NOPERM.*smembers/);
    await noneLeft();
  });

  it('a Redis that never answers: given up after the start timeout, its connections closed', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.resume(); // reads what it is sent (so it sees the client close), answers nothing
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      await assert.rejects(
        open(admin, `redis://127.0.0.1:${port}`, { startTimeoutMs: 300 }),
        /could not start on Redis: Redis did not answer within 300 ms/,
      );
      await eventually('the silent server’s sockets closed', () => (sockets.size === 0 ? true : undefined));
    } finally {
      silent.close();
    }
  });

  it('a Redis that answers: the state opens, and closes every connection it opened', async () => {
    const state = await open(admin, server.url);
    assert.ok((await others()).length > 0, 'the queue has its connections');
    await state.close();
    await noneLeft();
  });
});
