/**
 * Where the service's signing key comes from, once at start: SIGNING_KEY_FILE when set; else,
 * with REDIS_URL, one key shared by every instance through Redis (so all of them sign with the
 * key every one of them publishes); with STATE_STORE=memory, a key made at start and lost at
 * exit; else a key generated once and kept in STATE_DIR. Generation is exclusive: of several
 * processes starting together on one place, the first key written wins and the others read it.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { errorMessage } from '../errors.js';
import { generateKeyPem, type SigningKey, signingKeyFromPem } from '../signing/key.js';
import { StateError } from './error.js';
import { connectRedis } from './redis-client.js';
import { SIGNING_KEY_REDIS_KEY } from './redis-keys.js';

/** SIGNING_KEY_FILE cannot be used: the message names it and says what to do (exit 2). */
export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/** The generated key's file in STATE_DIR (its Redis key is in redis-keys.ts). */
export const KEY_FILE_NAME = 'signing-key.pem';

const reasonOf = (e: unknown) => errorMessage(e).replace(/\.+$/, '');

async function keyFromFile(path: string): Promise<SigningKey> {
  try {
    return signingKeyFromPem(await readFile(path, 'utf8'));
  } catch (e) {
    throw new SigningKeyError(
      `SIGNING_KEY_FILE ${path} cannot be used: ${reasonOf(e)}. Set it to an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519 -out signing-key.pem), or unset it to keep a generated key in STATE_DIR.`,
    );
  }
}

/**
 * Writes a new key whole under a name of its own, then links it into place: link() fails with
 * EEXIST when another process was first, and a reader never sees a half-written key.
 */
async function createOrReadKeyFile(dir: string): Promise<string> {
  const path = join(dir, KEY_FILE_NAME);
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `${KEY_FILE_NAME}.${randomUUID()}.tmp`);
  await writeFile(temporary, generateKeyPem(), { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'EEXIST') throw e;
  } finally {
    await unlink(temporary).catch(() => {});
  }
  return readFile(path, 'utf8');
}

/** The key kept in `dir`, generated there first when there is none. */
export async function keyInStateDir(dir: string): Promise<SigningKey> {
  const path = join(dir, KEY_FILE_NAME);
  const pem = await createOrReadKeyFile(dir).catch((e: unknown) => {
    throw new StateError(
      `Cannot keep the signing key in ${dir}: ${reasonOf(e)}. Set STATE_DIR to a writable directory, or SIGNING_KEY_FILE to a key.`,
    );
  });
  try {
    return signingKeyFromPem(pem);
  } catch (e) {
    throw new StateError(
      `The signing key ${path} is damaged: ${reasonOf(e)}. Restore it from a backup, or remove it to have a new key generated (results signed before can no longer be checked against the published key).`,
    );
  }
}

/** The key kept on Redis at `url`: SET NX then GET, so the first instance's key is every instance's. */
export async function keyInRedis(url: string): Promise<SigningKey> {
  let pem: string | null;
  try {
    const redis = await connectRedis(url);
    try {
      await redis.set(SIGNING_KEY_REDIS_KEY, generateKeyPem(), 'NX');
      pem = await redis.get(SIGNING_KEY_REDIS_KEY);
    } finally {
      await redis.quit().catch(() => redis.disconnect());
    }
  } catch (e) {
    throw new StateError(
      `Cannot keep the signing key in REDIS_URL: ${reasonOf(e)}. Fix Redis or REDIS_URL, or set SIGNING_KEY_FILE.`,
    );
  }
  try {
    return signingKeyFromPem(pem ?? '');
  } catch (e) {
    throw new StateError(
      `The signing key in Redis (${SIGNING_KEY_REDIS_KEY}) is damaged: ${reasonOf(e)}. Delete it to have a new one generated, or set SIGNING_KEY_FILE.`,
    );
  }
}

/**
 * The memory state's place for a key: made at its first take, the same for every take after,
 * lost with the process (results signed with it cannot be checked after a restart).
 */
export function memoryKeyPlace(): () => Promise<SigningKey> {
  let key: SigningKey | undefined;
  return async () => {
    key ??= signingKeyFromPem(generateKeyPem());
    return key;
  };
}

/** The configured key; throws SigningKeyError (bad file) or StateError (state unusable). */
export function loadSigningKey(config: Config): Promise<SigningKey> {
  if (config.signingKeyFile !== null) return keyFromFile(config.signingKeyFile);
  if (config.stateStore === 'redis') return keyInRedis(config.redisUrl as string);
  if (config.stateStore === 'memory') return memoryKeyPlace()();
  return keyInStateDir(config.stateDir);
}
