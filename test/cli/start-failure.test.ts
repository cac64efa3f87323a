/**
 * A start that fails to listen says why in one line and names the variable to change: no stack
 * trace. Run as `npm start` runs it (src/main.ts in its own process).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { describeStartFailure } from '../../src/cli/start-failure.js';
import { parseConfig } from '../../src/config.js';
import { TEST_PAY_TO } from '../helpers/service.js';
import { HANG_MS } from './run-cli.js';

const execute = promisify(execFile);
const stateDir = mkdtempSync(join(tmpdir(), 'start-failure-state-'));
process.on('exit', () => rmSync(stateDir, { recursive: true, force: true }));

/** Runs src/main.ts with `env` (mainnet, facilitators unreachable so the start is quick). */
function start(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return execute(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    timeout: HANG_MS,
    env: {
      PATH: process.env.PATH,
      PAY_TO: TEST_PAY_TO,
      FACILITATOR_URLS: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
      STATE_DIR: stateDir,
      ...env,
    },
  }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

describe('a start that cannot listen', () => {
  let holder: Server;
  let busyPort: number;
  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    busyPort = (holder.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => holder.close(resolve));
  });

  it('a port in use: exit 1, one line naming PORT, no stack trace', async () => {
    const { code, stderr } = await start({ PORT: String(busyPort), HOST: '127.0.0.1' });
    assert.equal(code, 1);
    assert.equal(
      stderr.trim(),
      `Cannot listen on 127.0.0.1:${busyPort}: the port is already in use. Stop what holds it, or set PORT to a free port.`,
    );
  });

  it('a HOST that does not resolve: exit 1, one line naming HOST', async () => {
    const { code, stderr } = await start({ PORT: '0', HOST: 'no-such-host.invalid' });
    assert.equal(code, 1);
    assert.match(
      stderr.trim(),
      /^Cannot listen: HOST "no-such-host.invalid" does not resolve to an address\./,
    );
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });
});

describe('describeStartFailure', () => {
  const inUse = (port: number) => Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', port });

  it('names the sandbox variable whose port is taken', () => {
    const sandbox = parseConfig({ SANDBOX_RPC_PORT: '9000', SANDBOX_FACILITATOR_PORT: '9100' });
    assert.match(describeStartFailure(inUse(9000), sandbox) ?? '', /set SANDBOX_RPC_PORT to a free port/);
    assert.match(
      describeStartFailure(inUse(9101), sandbox) ?? '',
      /set SANDBOX_FACILITATOR_PORT to a free port/,
    );
    assert.match(describeStartFailure(inUse(8402), sandbox) ?? '', /set PORT to a free port/);
  });

  it('leaves errors it does not know to surface as they are', () => {
    const config = parseConfig({});
    assert.equal(describeStartFailure(new Error('boom'), config), null);
    assert.equal(describeStartFailure('not an error', config), null);
  });
});

describe('a start whose payment state cannot be used', () => {
  it('a STATE_DIR that is a file: exit 1, one line naming STATE_DIR, no stack trace', async () => {
    const file = join(stateDir, 'not-a-directory');
    writeFileSync(file, 'x');
    const { code, stderr } = await start({ PORT: '0', HOST: '127.0.0.1', STATE_DIR: file });
    assert.equal(code, 1);
    assert.match(
      stderr.trim(),
      /^Cannot keep payment state in .*not-a-directory: .*Set STATE_DIR to a writable directory\.$/,
    );
    assert.doesNotMatch(stderr, /^\s+at /m);
  });

  it('a REDIS_URL nobody answers: exit 1, one line naming REDIS_URL, no stack trace', async () => {
    const { code, stderr } = await start({ PORT: '0', HOST: '127.0.0.1', REDIS_URL: 'redis://127.0.0.1:9' });
    assert.equal(code, 1);
    assert.match(
      stderr.trim(),
      /^Cannot use REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:9 is unreachable: connect ECONNREFUSED .*Fix Redis or REDIS_URL/,
    );
    assert.equal(stderr.trim().split('\n').length, 1);
  });
});
