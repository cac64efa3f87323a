/**
 * `risk-scan sandbox`, `risk-scan serve` and `npm start` that cannot start end in one line naming
 * what to change, with exit code 1 (2 for a wrong option), never a stack trace; `--ports auto`
 * runs the sandbox on free ports, printed in the banner and the manifest.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { unusedPort } from '../helpers/ports.js';
import { TEST_SNAPSHOT_DIR } from '../helpers/seeded-chain.js';
import { TEST_PAY_TO } from '../helpers/service.js';
import {
  assertOneLine,
  closedPort,
  HANG_MS,
  holdPort,
  npmStart,
  riskScan,
  riskScanHere,
  tempDir,
} from './run-cli.js';

const inUse = (port: number, variable: string) =>
  new RegExp(
    `^Cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use\\. Stop what holds it, set ${variable} to a free port, or pass --ports auto to run the sandbox on free ports\\.$`,
  );

/** Fixed ports for the sandbox that are free now, but for the ones a test holds. */
async function sandboxEnv(ports: { api?: number; rpc?: number; facilitator?: number } = {}) {
  return {
    SANDBOX_DIR: tempDir('sandbox-failure-'),
    PORT: String(ports.api ?? (await closedPort())),
    SANDBOX_RPC_PORT: String(ports.rpc ?? (await closedPort())),
    SANDBOX_FACILITATOR_PORT: String(ports.facilitator ?? 0),
  };
}

/**
 * A held port whose predecessor is free: the first facilitator's, when the second's is taken. Both
 * lie below the ephemeral range, so no other test's listen(0) takes the free one meanwhile.
 */
async function heldAfterFreePort() {
  for (;;) {
    const free = await unusedPort(2);
    const held = await holdPort(free + 1);
    if (held.held) return held;
  }
}

describe('a sandbox that cannot listen', { concurrency: 4 }, () => {
  it('the API port (PORT, 8402 by default) in use: exit 1, one line naming PORT', async () => {
    const held = await holdPort();
    try {
      const ended = await riskScan(['sandbox'], await sandboxEnv({ api: held.port }));
      assertOneLine(ended, 1, inUse(held.port, 'PORT'));
    } finally {
      await held.close();
    }
  });

  it('the RPC port (SANDBOX_RPC_PORT) in use: exit 1, one line naming SANDBOX_RPC_PORT', async () => {
    const held = await holdPort();
    try {
      const ended = await riskScan(['sandbox'], await sandboxEnv({ rpc: held.port }));
      assertOneLine(ended, 1, inUse(held.port, 'SANDBOX_RPC_PORT'));
    } finally {
      await held.close();
    }
  });

  it("8899 (solana-test-validator's port, the RPC's default) in use: the line says so", async () => {
    // Held here, or already taken by a validator on this machine: the sandbox fails the same way.
    const held = await holdPort(8899);
    try {
      const env = await sandboxEnv();
      const { SANDBOX_RPC_PORT: _, ...defaultRpc } = env;
      const ended = await riskScan(['sandbox'], defaultRpc);
      assertOneLine(
        ended,
        1,
        "Cannot listen on 127.0.0.1:8899: the port is already in use (8899 is solana-test-validator's RPC port: is it running?). Stop what holds it, set SANDBOX_RPC_PORT to a free port, or pass --ports auto to run the sandbox on free ports.",
      );
    } finally {
      await held.close();
    }
  });

  it("the second facilitator's port (SANDBOX_FACILITATOR_PORT + 1, 8405 by default) in use: names SANDBOX_FACILITATOR_PORT", async () => {
    const held = await heldAfterFreePort();
    try {
      const ended = await riskScan(['sandbox'], await sandboxEnv({ facilitator: held.port - 1 }));
      assertOneLine(ended, 1, inUse(held.port, 'SANDBOX_FACILITATOR_PORT'));
    } finally {
      await held.close();
    }
  });

  it('npm start (the sandbox with no configuration) says the same', async () => {
    const held = await holdPort();
    try {
      const ended = await npmStart([], await sandboxEnv({ facilitator: held.port }));
      assertOneLine(ended, 1, inUse(held.port, 'SANDBOX_FACILITATOR_PORT'));
    } finally {
      await held.close();
    }
  });

  it('risk-scan serve on mainnet with its port in use: exit 1, one line naming PORT', async () => {
    const held = await holdPort();
    try {
      const ended = await riskScan(['serve'], {
        PAY_TO: TEST_PAY_TO,
        PORT: String(held.port),
        HOST: '127.0.0.1',
        FACILITATOR_URLS: 'http://127.0.0.1:9',
      });
      assertOneLine(
        ended,
        1,
        `Cannot listen on 127.0.0.1:${held.port}: the port is already in use. Stop what holds it, or set PORT to a free port.`,
      );
    } finally {
      await held.close();
    }
  });

  // Refused before the sandbox starts: run by runCli in this process (see riskScanHere).
  it('--ports with anything but auto: exit 2, one line', async () => {
    const ended = await riskScanHere(['sandbox', '--ports', '9000'], await sandboxEnv());
    assertOneLine(ended, 2, /^--ports takes "auto", not "9000" \(risk-scan --help shows the usage\)$/);
  });

  it('an unknown option: exit 2, one line', async () => {
    const ended = await riskScanHere(['sandbox', '--port', '9000'], await sandboxEnv());
    assertOneLine(ended, 2, /^Unknown option '--port'.*\(risk-scan --help shows the usage\)$/);
  });

  it('--verbose adds the cause chain after the line', async () => {
    const held = await holdPort();
    try {
      const ended = await riskScan(['sandbox', '--verbose'], await sandboxEnv({ rpc: held.port }));
      assert.equal(ended.code, 1);
      const [first, ...rest] = ended.stderr.trim().split('\n');
      assert.match(first!, inUse(held.port, 'SANDBOX_RPC_PORT'));
      assert.match(rest.join('\n'), /EADDRINUSE/);
      assert.match(rest.join('\n'), /^ {4}at /m);
    } finally {
      await held.close();
    }
  });
});

describe('risk-scan sandbox --ports auto', () => {
  it('runs on free ports while the default and configured ones are taken, and says where', async () => {
    const held = await Promise.all([holdPort(), holdPort()]);
    const dir = tempDir('sandbox-auto-');
    const child = spawn(process.execPath, ['bin/risk-scan.mjs', 'sandbox', '--ports', 'auto'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'silent',
        RISK_SCAN_FROM_SOURCE: '1',
        SANDBOX_DIR: dir,
        // The seeded chain restored from the tests' snapshot, as every other sandbox here.
        SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
        PORT: String(held[0]!.port),
        SANDBOX_RPC_PORT: String(held[1]!.port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Listened for from the start: a child killed by a signal keeps exitCode null for good.
    const exited = once(child, 'exit');
    const running = () => child.exitCode === null && child.signalCode === null;
    // Bounds a hang only: on a loaded machine the start alone may take half a minute.
    const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    try {
      while (!output.includes('Manifest') && running()) await new Promise((r) => setTimeout(r, 50));
      const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
      assert.ok(output.includes(`API           ${manifest.apiUrl}`), output);
      assert.ok(output.includes(`Solana RPC    ${manifest.rpcUrl}`), output);
      for (const url of [manifest.apiUrl, manifest.rpcUrl, ...manifest.facilitatorUrls]) {
        const port = Number(new URL(url).port);
        assert.ok(port > 0 && !held.some((h) => h.port === port), `${url} is on a free port`);
      }
      const health = (await fetch(`${manifest.apiUrl}/health`).then((r) => r.json())) as { mode: string };
      assert.equal(health.mode, 'sandbox');
    } finally {
      clearTimeout(killer);
      if (running()) child.kill('SIGTERM');
      await exited;
      await Promise.all(held.map((h) => h.close()));
    }
  });
});
