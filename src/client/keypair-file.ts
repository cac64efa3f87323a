/** Keypairs in the Solana CLI's file format: a JSON array of 64 bytes (secret seed + public key). */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  type KeyPairSigner,
} from '@solana/kit';
import { writeWhole } from '../write-whole.js';

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
  await writeWhole(path, `${JSON.stringify([...keypair.bytes])}\n`, 0o600);
}

export class KeypairFileError extends Error {
  override readonly name = 'KeypairFileError';
}

/** What a keypair file must be, said in each refusal of one. */
const FORMAT = 'a Solana CLI keypair (a JSON array of 64 bytes, as `solana-keygen new -o FILE` writes)';

export async function readKeypairFile(path: string): Promise<KeyPairSigner> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new KeypairFileError(`No keypair file at ${path}. Pass --keypair FILE with ${FORMAT}.`);
    if (code === 'EISDIR')
      throw new KeypairFileError(
        `${path} is a directory, not a keypair file. Pass --keypair FILE with ${FORMAT}.`,
      );
    throw new KeypairFileError(
      `Cannot read the keypair file ${path} (${code ?? String(e)}). Check its permissions.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeypairFileError(
      `${path} is not a Solana CLI keypair: it is not JSON. Pass --keypair FILE with ${FORMAT}.`,
    );
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 64 &&
    parsed.every((b) => Number.isInteger(b) && b >= 0 && b < 256);
  if (!valid)
    throw new KeypairFileError(
      `${path} is not a Solana CLI keypair: it must hold a JSON array of 64 bytes. Pass --keypair FILE with ${FORMAT}.`,
    );
  try {
    return await createKeyPairSignerFromBytes(new Uint8Array(parsed as number[]));
  } catch {
    throw new KeypairFileError(
      `${path} is not a Solana CLI keypair: its last 32 bytes are not the public key of its first 32. Pass --keypair FILE with ${FORMAT}.`,
    );
  }
}
