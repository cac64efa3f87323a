/**
 * A start that fails to listen says why in one line and names the variable to change: no stack
 * trace. Run as `npm start` runs it (src/main.ts in its own process).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { describeStartFailure } from '../../src/cli/start-failure.js';
import { parseConfig } from '../../src/config.js';
import { TEST_PAY_TO } from '../helpers/service.js';

const execute = promisify(execFile);

/** Runs src/main.ts with `env` (mainnet, facilitators unreachable so the start is quick). */
function start(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return execute(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      PAY_TO: TEST_PAY_TO,
      FACILITATOR_URLS: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
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
