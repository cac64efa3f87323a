/**
 * A clone of this repository stands on its own: nothing it runs (sources, tests, benchmarks,
 * scripts, CI) reads a sibling `shared/` directory or an absolute path of one machine.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['src', 'test', 'bench', 'scripts', 'bin', '.ci', 'package.json'];
const THIS_FILE = fileURLToPath(import.meta.url);
// A path out of the repository to shared/, or an absolute path of one machine.
const OUTSIDE = /(?:\.\.\/)+shared\/|['"`]\/(?:work|tmp|var|home)\//;

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => files(join(path, name)));
}

describe('the repository stands on its own', () => {
  it('no source, test, benchmark, script or CI file reaches outside the repository', () => {
    const offenders = SCANNED.flatMap((entry) => files(join(ROOT, entry)))
      .filter((file) => file !== THIS_FILE && /\.(ts|mjs|js|json|sh)$|\/run$/.test(file))
      .filter((file) => OUTSIDE.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    assert.deepEqual(offenders, []);
  });

  it('the sandbox loads its mainnet dumps from the repository', async () => {
    const { DEFAULT_MAINNET_DUMPS } = await import('../src/sandbox/scenarios/index.js');
    assert.ok(!relative(ROOT, DEFAULT_MAINNET_DUMPS).startsWith('..'), DEFAULT_MAINNET_DUMPS);
    assert.ok(readdirSync(DEFAULT_MAINNET_DUMPS).length > 30, 'the dumps are there');
  });
});
