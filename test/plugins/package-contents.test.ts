/**
 * `npm pack` of each framework plugin package ships only what a user needs: its built JavaScript and type declarations, package.json and README.md. Each is built by its
 * `prepack` (the client it depends on first), as a publish would.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const execute = promisify(execFile);

const PACKAGES = [
  {
    dir: 'packages/solana-agent-kit',
    name: '@solana-risk-scan/solana-agent-kit',
    framework: 'solana-agent-kit',
  },
  { dir: 'packages/ai-sdk', name: '@solana-risk-scan/ai-sdk', framework: 'ai' },
  { dir: 'packages/goat', name: '@solana-risk-scan/goat', framework: '@goat-sdk/core' },
  { dir: 'packages/elizaos', name: '@solana-risk-scan/elizaos', framework: '@elizaos/core' },
];

describe('npm pack of the framework plugins', { timeout: 600_000 }, () => {
  for (const { dir, name, framework } of PACKAGES) {
    it(`${name}: only dist JavaScript and .d.ts, package.json and README.md`, async () => {
      // --dry-run still runs prepack, which builds dist/.
      const { stdout } = await execute('npm', ['pack', '--dry-run', '--json', '-w', dir], {
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

    it(`${name}: exports its entry with its types; the framework is a peer and a dev dependency`, () => {
      const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
      assert.deepEqual(pkg.exports, { '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
      assert.ok(pkg.peerDependencies[framework], `${framework} is a peer dependency`);
      assert.ok(
        pkg.devDependencies[framework],
        `${framework} is a dev dependency, so the root npm ci installs it`,
      );
      assert.ok(pkg.dependencies['@solana-risk-scan/client'], 'it pays through the client');
    });
  }
});
