/** The payer's keypair file: private to its owner, written whole, read back as written. */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  generateKeypairWithBytes,
  readKeypairFile,
  writeKeypairFile,
} from '../../src/client/keypair-file.js';

describe('writeKeypairFile', () => {
  it('writes a file only its owner can read, with no temporary file left beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keypair-file-'));
    try {
      const keypair = await generateKeypairWithBytes();
      const path = join(dir, 'payer.json');
      await writeKeypairFile(path, keypair);
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      assert.deepEqual(await readdir(dir), ['payer.json']);
      assert.equal((await readKeypairFile(path)).address, keypair.signer.address);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
