/**
 * `npm pack` of each framework plugin ships only what a user needs: its built JavaScript and type
 * declarations, package.json and README.md. Built first by its `prepack`, as a publish would.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const execute = promisify(execFile);

for (const dir of ['goat', 'elizaos']) {
  const name = `@solana-risk-scan/${dir}`;
  describe(`npm pack of ${name}`, { timeout: 600_000 }, () => {
    it('lists only dist JavaScript and .d.ts, package.json and README.md', async () => {
      // --dry-run still runs prepack, which builds dist/ (and the client it depends on).
      const { stdout } = await execute('npm', ['pack', '--dry-run', '--json', '-w', `packages/${dir}`], {
        maxBuffer: 16 * 1024 * 1024,
      });
      const [packed] = JSON.parse(stdout) as { name: string; files: { path: string }[] }[];
      assert.equal(packed!.name, name);
      const paths = packed!.files.map((f) => f.path).sort();
      const stray = paths.filter(
        (p) => !(p === 'package.json' || p === 'README.md' || /^dist\/.+\.(js|d\.ts)$/.test(p)),
      );
      assert.deepEqual(stray, []);
      for (const entry of ['dist/index.js', 'dist/index.d.ts', 'README.md'])
        assert.ok(paths.includes(entry), `${entry} is packed`);
    });

    it('exports its entry with its types, and names its framework as a peer and a dev dependency', () => {
      const pkg = JSON.parse(readFileSync(`packages/${dir}/package.json`, 'utf8')) as {
        exports: Record<string, { types: string; default: string }>;
        peerDependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      assert.deepEqual(pkg.exports['.'], { types: './dist/index.d.ts', default: './dist/index.js' });
      const peers = Object.keys(pkg.peerDependencies).filter((p) => p !== 'zod');
      assert.ok(peers.length > 0);
      for (const peer of peers) assert.ok(pkg.devDependencies[peer], `${peer} is a dev dependency too`);
    });
  });
}
