/**
 * Production runs compiled JavaScript: `npm run build` compiles src/ to dist/, and `npm start`
 * (bin/risk-scan.mjs serve) runs dist/ with no TypeScript loaded — in the sandbox (no PAY_TO)
 * and on mainnet (PAY_TO). What the compiled code reads besides its own modules (package.json,
 * the mainnet dumps under fixtures/, swagger-ui-dist) must still resolve from dist/.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from '../cli/run-cli.js';
import { startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { unusedPort } from '../helpers/ports.js';
import { TEST_FEE_PAYER, TEST_PAY_TO } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** Loaded before the command: any TypeScript or tsx the process would load makes it fail. */
const NO_TYPESCRIPT = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (specifier === 'tsx' || specifier.startsWith('tsx/') || /\\\\.[cm]?ts$/.test(specifier))
    throw new Error('the compiled service loaded TypeScript: ' + specifier);
  return next(specifier, context);
}\`));
`)}`;

/** `npm start` as package.json runs it, with no TypeScript allowed. */
function npmStart(env: Record<string, string>): ChildProcess {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
  const [node, ...args] = scripts.start!.split(' ');
  assert.equal(node, 'node');
  return spawn(process.execPath, ['--import', NO_TYPESCRIPT, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Resolves once `url` answers; the test's own timeout bounds the wait. */
async function answered(url: string, child: ChildProcess): Promise<Response> {
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  for (;;) {
    if (child.exitCode !== null) assert.fail(`the service exited ${child.exitCode}: ${stderr}`);
    const res = await fetch(url).catch(() => null);
    if (res !== null) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('the compiled service (npm run build, npm start)', { timeout: 600_000 }, () => {
  before(async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { timeout: 540_000 });
  });

  const running: ChildProcess[] = [];
  after(async () => {
    await Promise.all(running.map(stop));
  });

  it('npm run build writes dist/ and marks it built', () => {
    assert.ok(existsSync(join('dist', 'cli', 'index.js')));
    assert.ok(existsSync(join('dist', 'BUILT')));
  });

  it('with nothing set, serves the sandbox from dist/: /health, the docs assets, the mainnet dumps', async () => {
    const dir = tempDir('compiled-sandbox-');
    const port = await unusedPort();
    const child = npmStart({
      SANDBOX_DIR: dir,
      PORT: String(port),
      SANDBOX_RPC_PORT: '0',
      SANDBOX_FACILITATOR_PORT: '0',
    });
    running.push(child);
    const health = await answered(`http://127.0.0.1:${port}/health`, child);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { mode: string }).mode, 'sandbox');
    const page = await (await fetch(`http://127.0.0.1:${port}/docs`)).text();
    const bundle = /src="(\/docs\/assets\/swagger-ui-bundle[^"]+)"/.exec(page)?.[1];
    assert.ok(bundle, page);
    assert.equal((await fetch(`http://127.0.0.1:${port}${bundle}`)).status, 200);
    // The manifest is written once the API listens; its subjects include the loaded mainnet dumps.
    while (!existsSync(join(dir, 'sandbox.json'))) await new Promise((r) => setTimeout(r, 100));
    const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    assert.ok(manifest.subjects.some((s: { name: string }) => s.name.startsWith('mainnet:')));
    await stop(child);
  });

  it('with PAY_TO, serves mainnet from dist/: /health answers and a paid endpoint offers its price', async () => {
    const stub = await startFacilitatorStub(TEST_FEE_PAYER);
    try {
      const port = await unusedPort();
      const child = npmStart({
        PAY_TO: TEST_PAY_TO,
        PORT: String(port),
        HOST: '127.0.0.1',
        FACILITATOR_URLS: stub.url,
        VERIFIED_TOKENS_URL: 'none',
        SOLANA_RPC_URL: `http://127.0.0.1:${await unusedPort()}`,
        STATE_DIR: tempDir('compiled-mainnet-'),
      });
      running.push(child);
      const health = await answered(`http://127.0.0.1:${port}/health`, child);
      assert.equal(((await health.json()) as { mode: string }).mode, 'mainnet');
      const offer = await fetch(`http://127.0.0.1:${port}/scan/token/${USDC}`);
      assert.equal(offer.status, 402);
      const body = (await offer.json()) as { accepts: { extra?: { feePayer?: string } }[] };
      assert.equal(body.accepts[0]!.extra?.feePayer, TEST_FEE_PAYER);
      await stop(child);
    } finally {
      await stub.close();
    }
  });
});
