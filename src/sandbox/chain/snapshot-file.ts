/**
 * A snapshot on disk: one header line (format, key, when it was taken, the payload's SHA-256 and
 * length), then the payload. The hash is checked before the payload is parsed, so a truncated or
 * damaged file is refused with a reason and never reaches LiteSVM's deserializer. Written to a
 * temporary file and renamed into place, so two processes writing the same snapshot at once
 * leave one whole file, and a reader never sees half of one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseTagged, serializeTagged } from './snapshot.js';

const FORMAT = 'sandbox-snapshot-file/1';

export interface SnapshotHeader {
  readonly format: string;
  /** What the snapshot was built from (see seeded-snapshot.ts); a file under another key is not used. */
  readonly key: string;
  /** Wall-clock milliseconds when the snapshot was taken. */
  readonly savedAtMs: number;
  readonly sha256: string;
  readonly bytes: number;
}

export type SnapshotRead<T> =
  | { readonly ok: true; readonly header: SnapshotHeader; readonly payload: T }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function writeSnapshotFile(
  path: string,
  key: string,
  payload: unknown,
  /** The moment the payload holds (default now): a reader moves its times on from there. */
  savedAtMs = Date.now(),
): Promise<void> {
  const body = Buffer.from(serializeTagged(payload));
  const header = { format: FORMAT, key, savedAtMs, sha256: sha256(body), bytes: body.length };
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

function headerProblem(header: SnapshotHeader, key: string, body: Buffer): string | null {
  // A header that is not an object with whole numbers would let a NaN age pass every check.
  if (typeof header !== 'object' || header === null) return 'has a malformed header';
  if (!Number.isSafeInteger(header.savedAtMs) || !Number.isSafeInteger(header.bytes))
    return 'has a malformed header';
  if (header.format !== FORMAT) return `is not a snapshot file (format ${String(header.format)})`;
  if (header.key !== key) return 'was built from other sources';
  if (body.length !== header.bytes) return `is truncated (${body.length} of ${header.bytes} bytes)`;
  if (sha256(body) !== header.sha256) return 'is damaged (its checksum does not match)';
  return null;
}

/** The snapshot at `path` if it is whole and was built under `key`; otherwise why not. */
export async function readSnapshotFile<T>(path: string, key: string): Promise<SnapshotRead<T>> {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      ok: false,
      missing,
      reason: missing ? 'does not exist yet' : `is unreadable (${(e as Error).message})`,
    };
  }
  try {
    const newline = file.indexOf(0x0a);
    if (newline < 0) return { ok: false, missing: false, reason: 'is truncated (no header line)' };
    const header = JSON.parse(file.subarray(0, newline).toString('utf8')) as SnapshotHeader;
    const body = file.subarray(newline + 1);
    const problem = headerProblem(header, key, body);
    if (problem !== null) return { ok: false, missing: false, reason: problem };
    return { ok: true, header, payload: parseTagged(body.toString('utf8')) as T };
  } catch (e) {
    return { ok: false, missing: false, reason: `is unreadable (${(e as Error).message})` };
  }
}
