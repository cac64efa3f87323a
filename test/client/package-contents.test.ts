/**
 * `npm pack` of the client package ships only what a user needs: its built JavaScript and type
 * declarations, package.json and README.md. Built here first (its `prepack`), as a publish would.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const execute = promisify(execFile);

describe('npm pack of @solana-risk-scan/client', { timeout: 600_000 }, () => {
  it('lists only dist JavaScript and .d.ts, package.json and README.md', async () => {
    // --dry-run still runs prepack, which builds dist/.
    const { stdout } = await execute('npm', ['pack', '--dry-run', '--json', '-w', 'packages/client'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as { name: string; files: { path: string }[] }[];
    assert.equal(packed!.name, '@solana-risk-scan/client');
    const paths = packed!.files.map((f) => f.path).sort();
    const stray = paths.filter(
      (p) => !(p === 'package.json' || p === 'README.md' || /^dist\/.+\.(js|d\.ts)$/.test(p)),
    );
    assert.deepEqual(stray, []);
    for (const entry of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/webhook.js',
      'dist/errors.js',
      'README.md',
    ])
      assert.ok(paths.includes(entry), `${entry} is packed`);
    assert.ok(!paths.some((p) => p.startsWith('src/')), 'no TypeScript sources');
  });

  it('exports each entry with its types', () => {
    const pkg = JSON.parse(readFileSync('packages/client/package.json', 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
    };
    for (const [entry, target] of Object.entries(pkg.exports)) {
      assert.match(target.default, /^\.\/dist\/.+\.js$/, entry);
      assert.equal(target.types, target.default.replace(/\.js$/, '.d.ts'), entry);
    }
  });
});
