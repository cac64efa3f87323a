/**
 * The elizaOS plugin's own written-out types (packages/elizaos/src/eliza-types.ts) fit elizaOS's:
 * compiled with `Bundler` resolution, as elizaOS projects compile (its declarations cannot be read
 * under NodeNext), the plugin is assignable to `@elizaos/core`'s `Plugin` and to a `ProjectAgent`'s
 * plugins, and a plugin whose action lacks its handler is not.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

const execute = promisify(execFile);

const FIXTURE = `
import type { Plugin, ProjectAgent } from '@elizaos/core';
import riskScanPlugin from '@solana-risk-scan/elizaos';

export const plugin: Plugin = riskScanPlugin;
export const agent: ProjectAgent = { character: { name: 'Scout', bio: 'Checks tokens.' }, plugins: [riskScanPlugin] };
const [action] = riskScanPlugin.actions!;
const { handler: _handler, ...withoutHandler } = action!;
// @ts-expect-error an action without its handler is no elizaOS action
export const broken: Plugin = { ...riskScanPlugin, actions: [withoutHandler] };
`;

describe("the elizaOS plugin's types", { timeout: 600_000 }, () => {
  const dir = join(process.cwd(), '.tmp', `elizaos-types-${process.pid}`);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("are assignable to @elizaos/core's Plugin under Bundler resolution", async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'fixture.ts'), FIXTURE);
    const packages = relative(dir, join(process.cwd(), 'packages'));
    const tsconfig = {
      compilerOptions: {
        target: 'ES2023',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
        paths: { '@solana-risk-scan/*': [`${packages}/*/src/index.ts`] },
      },
      files: ['fixture.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(process.cwd(), 'node_modules', 'typescript', 'bin', 'tsc');
    const ran = await execute(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }),
    );
    assert.equal(ran.stdout, '', 'tsc reports nothing');
  });
});
