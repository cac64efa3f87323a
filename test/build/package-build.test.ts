/**
 * The workspace packages are compiled once, not once per use: a test run packs the client and the
 * four plugins (each of whose prepack builds the client first) and builds the service, which used
 * to compile the client six times. A package whose dist/ is newer than its sources is left as it
 * is, and builds started at once compile it once, the others waiting for that build.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const execute = promisify(execFile);
const STAMP = 'packages/client/dist/BUILT';

/** `npm run build -w packages/client` as its prepack runs it; what it said on stderr. */
async function buildClient(): Promise<string> {
  const { stderr } = await execute(process.execPath, ['scripts/build.mjs', '--package', 'client']);
  return stderr;
}

const compilesOf = (said: string[]) =>
  said
    .join('')
    .split('\n')
    .filter((line) => line === 'build: compiling packages/client').length;

describe('building the client package', { timeout: 600_000 }, () => {
  it('a second build finds the client up to date and compiles nothing', async () => {
    await buildClient();
    const built = statSync(STAMP).mtimeMs;
    assert.equal(compilesOf([await buildClient()]), 0);
    assert.equal(statSync(STAMP).mtimeMs, built, 'dist/ was left as it was');
  });

  it('after a source changed, two builds at once compile it once', async () => {
    // A change to a source (its time, as an edit would set it) makes the build stale.
    const now = new Date();
    utimesSync('packages/client/src/index.ts', now, now);
    const said = await Promise.all([buildClient(), buildClient()]);
    // At most once: another test file building the client meanwhile may have compiled it first.
    assert.ok(compilesOf(said) <= 1, said.join('\n'));
    assert.ok(statSync(STAMP).mtimeMs >= now.getTime(), 'dist/ is newer than the change');
  });
});
