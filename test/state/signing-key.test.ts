/**
 * Where the signing key comes from: a generated key is kept in STATE_DIR (0600) and read again
 * after a restart; processes generating at once on one directory all end with the same key;
 * SIGNING_KEY_FILE is used as given, and a file that is not an Ed25519 key is refused by name;
 * with REDIS_URL every instance gets the one key kept in Redis.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { parseConfig } from '../../src/config.js';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { SIGNING_KEY_REDIS_KEY } from '../../src/state/redis-keys.js';
import {
  KEY_FILE_NAME,
  keyInRedis,
  keyInStateDir,
  loadSigningKey,
  memoryKeyPlace,
  SigningKeyError,
} from '../../src/state/signing-key.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { TEST_PAY_TO } from '../helpers/service.js';
import { signingKeyPlaceContract } from '../helpers/signing-key-contract.js';

const configWith = (env: Record<string, string>) =>
  parseConfig({ RISK_SCAN_MODE: 'mainnet', PAY_TO: TEST_PAY_TO, ...env });

describe('the signing key', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'signing-key-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is generated once in STATE_DIR, readable by its owner only, and the same after a restart', async () => {
    const stateDir = join(dir, 'restart');
    const first = await loadSigningKey(configWith({ STATE_DIR: stateDir }));
    const again = await loadSigningKey(configWith({ STATE_DIR: stateDir }));
    assert.equal(again.kid, first.kid);
    assert.equal((await stat(join(stateDir, KEY_FILE_NAME))).mode & 0o777, 0o600);
    const other = await loadSigningKey(configWith({ STATE_DIR: join(dir, 'elsewhere') }));
    assert.notEqual(other.kid, first.kid, 'another STATE_DIR has a key of its own');
  });

  it('is one key when many loads race on one empty STATE_DIR', async () => {
    const stateDir = join(dir, 'race');
    const keys = await Promise.all(
      Array.from({ length: 20 }, () => loadSigningKey(configWith({ STATE_DIR: stateDir }))),
    );
    assert.deepEqual(new Set(keys.map((k) => k.kid)).size, 1);
  });

  it('with STATE_STORE=memory is made at start, lost at exit: nothing written to STATE_DIR', async () => {
    const config = configWith({
      RISK_SCAN_MODE: 'sandbox',
      STATE_DIR: join(dir, 'memory'),
      STATE_STORE: 'memory',
    });
    const [first, again] = [await loadSigningKey(config), await loadSigningKey(config)];
    assert.notEqual(again.kid, first.kid, 'another start, another key');
    await assert.rejects(stat(join(dir, 'memory')), { code: 'ENOENT' });
  });

  it('is the key of SIGNING_KEY_FILE when set (an openssl-style PKCS#8 PEM)', async () => {
    const file = join(dir, 'given.pem');
    const pem = generateKeyPem();
    await writeFile(file, pem);
    const key = await loadSigningKey(configWith({ STATE_DIR: join(dir, 'unused'), SIGNING_KEY_FILE: file }));
    assert.equal(key.kid, signingKeyFromPem(pem).kid);
    assert.match(key.kid, /^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256 thumbprint');
  });

  for (const [what, content] of [
    ['missing', null],
    ['not a key', 'hello'],
    [
      'an RSA key',
      generateKeyPairSync('rsa', { modulusLength: 1024 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    ],
  ] as const) {
    it(`refuses a SIGNING_KEY_FILE that is ${what}, naming the variable`, async () => {
      const file = join(dir, `bad-${what.replace(/\W/g, '-')}.pem`);
      if (content !== null) await writeFile(file, content);
      await assert.rejects(loadSigningKey(configWith({ SIGNING_KEY_FILE: file })), (e: unknown) => {
        assert.ok(e instanceof SigningKeyError);
        assert.match(e.message, /^SIGNING_KEY_FILE .* cannot be used: .*Ed25519/);
        return true;
      });
    });
  }

  describe('with REDIS_URL', () => {
    let redis: RedisServer;
    before(async () => {
      redis = await startRedis();
    });
    after(async () => {
      await redis?.stop();
    });

    it('gives every instance the same key, whatever their STATE_DIRs', async () => {
      const keys = await Promise.all(
        ['a', 'b', 'c'].map((name) =>
          loadSigningKey(configWith({ REDIS_URL: redis.url, STATE_DIR: join(dir, `redis-${name}`) })),
        ),
      );
      assert.equal(new Set(keys.map((k) => k.kid)).size, 1);
      const later = await loadSigningKey(configWith({ REDIS_URL: redis.url }));
      assert.equal(later.kid, keys[0]!.kid);
    });
  });
});

describe('each place a generated key is kept', () => {
  let root: string;
  let places = 0;
  let redis: RedisServer;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'signing-key-places-'));
    redis = await startRedis();
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
    await redis?.stop();
  });

  // No durable side: the memory state's key is made at start and lost at exit.
  signingKeyPlaceContract('memory', {
    place: async () => ({ take: memoryKeyPlace() }),
  });

  signingKeyPlaceContract('STATE_DIR', {
    place: async () => {
      const dir = join(root, `place-${++places}`);
      return { take: () => keyInStateDir(dir), dir };
    },
    durable: {
      // Each take reads the directory as a starting process does.
      restart: async (place) => ({ take: () => keyInStateDir(place.dir), dir: place.dir }),
      damage: (place) => writeFile(join(place.dir, KEY_FILE_NAME), 'not a key'),
      names: new RegExp(`place-\\d+/${KEY_FILE_NAME}`),
    },
  });

  /** One Redis, emptied for each place: the key's name is fixed (redis-keys.ts). */
  const onRedis = async (command: (client: Redis) => Promise<unknown>) => {
    const client = new Redis(redis.url);
    try {
      await command(client);
    } finally {
      client.disconnect();
    }
  };
  signingKeyPlaceContract('Redis', {
    place: async () => {
      await onRedis((client) => client.del(SIGNING_KEY_REDIS_KEY));
      return { take: () => keyInRedis(redis.url) };
    },
    durable: {
      restart: async () => ({ take: () => keyInRedis(redis.url) }),
      damage: () => onRedis((client) => client.set(SIGNING_KEY_REDIS_KEY, 'not a key')),
      names: new RegExp(SIGNING_KEY_REDIS_KEY),
    },
  });
});
