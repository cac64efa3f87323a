/** Keypairs in the Solana CLI's file format: a JSON array of 64 bytes (secret seed + public key). */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  type KeyPairSigner,
} from '@solana/kit';

export interface KeypairWithBytes {
  readonly signer: KeyPairSigner;
  /** 64 bytes: the 32-byte seed followed by the 32-byte public key. */
  readonly bytes: Uint8Array;
}

export async function generateKeypairWithBytes(): Promise<KeypairWithBytes> {
  const seed = new Uint8Array(randomBytes(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const bytes = new Uint8Array(64);
  bytes.set(seed, 0);
  bytes.set(getAddressEncoder().encode(signer.address), 32);
  return { signer, bytes };
}

export async function writeKeypairFile(path: string, keypair: KeypairWithBytes): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify([...keypair.bytes])}\n`, { mode: 0o600 });
}

export class KeypairFileError extends Error {
  override readonly name = 'KeypairFileError';
}

export async function readKeypairFile(path: string): Promise<KeyPairSigner> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new KeypairFileError(missing ? `no keypair file at ${path}` : `${path} is not a JSON keypair file`);
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 64 &&
    parsed.every((b) => Number.isInteger(b) && b >= 0 && b < 256);
  if (!valid) throw new KeypairFileError(`${path} must hold a JSON array of 64 bytes (Solana CLI format)`);
  try {
    return await createKeyPairSignerFromBytes(new Uint8Array(parsed as number[]));
  } catch {
    throw new KeypairFileError(`${path} holds 64 bytes whose public half does not match the secret`);
  }
}
