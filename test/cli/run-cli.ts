/**
 * Runs `risk-scan` (bin/risk-scan.mjs) or `npm start` (src/main.ts) as a new user would, in its
 * own process with a bounded lifetime, and checks how a failure ends: its exit code and one line
 * on stderr, with no stack trace.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { unusedPort } from '../helpers/ports.js';
import { TEST_SNAPSHOT_DIR } from '../helpers/seeded-chain.js';

export interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh directory under the system's temp dir, removed when the test process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const scratch = tempDir('run-cli-');

function run(args: string[], env: Record<string, string>, timeoutMs: number): Promise<Ended> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          LOG_LEVEL: 'silent',
          RISK_SCAN_FROM_SOURCE: '1',
          // Nothing is written into the checkout: every service gets a directory of its own.
          SANDBOX_DIR: join(scratch, 'no-sandbox'),
          STATE_DIR: join(scratch, 'state'),
          // The seeded chain's snapshot the test helpers keep: a sandbox started here restores it.
          SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A bound on a command that hangs, not a time limit: on a loaded machine starting tsx and the
 * sources alone may take half a minute (four at once in call-failures.test.ts did, on main too).
 */
export const HANG_MS = 120_000;

/** The environment a command sees, here or in its own process. */
const commandEnv = (env: Record<string, string>): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  LOG_LEVEL: 'silent',
  SANDBOX_DIR: join(scratch, 'no-sandbox'),
  STATE_DIR: join(scratch, 'state'),
  SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
  ...env,
});

let here: Promise<unknown> = Promise.resolve();

/**
 * `risk-scan <args>` run by `runCli` in this process, one at a time: its exit code and what it
 * wrote with console.log (stdout) and console.error (stderr), as `main` passes them on. For a
 * command that fails before it starts anything (usage, files, options): starting the CLI in a
 * process of its own costs seconds of module loading, and the process's own path (`main`) is
 * checked by the spawned commands of the same test file.
 */
export function riskScanHere(args: string[], env: Record<string, string> = {}): Promise<Ended> {
  const ran = here.then(async () => {
    const { runCli } = await import('../../src/cli/index.js');
    const written = { stdout: '', stderr: '' };
    const { log, error } = console;
    console.log = (...parts: unknown[]) => {
      written.stdout += `${format(...parts)}\n`;
    };
    console.error = (...parts: unknown[]) => {
      written.stderr += `${format(...parts)}\n`;
    };
    try {
      const code = await runCli(args, commandEnv(env));
      return { code, ...written };
    } finally {
      console.log = log;
      console.error = error;
    }
  });
  here = ran.catch(() => {});
  return ran;
}

/** `risk-scan <args>`; SANDBOX_DIR and STATE_DIR default to a temp dir. */
export const riskScan = (args: string[], env: Record<string, string> = {}, timeoutMs = HANG_MS) =>
  run(['bin/risk-scan.mjs', ...args], env, timeoutMs);

/** `npm start -- <args>`, as node runs it. */
export const npmStart = (args: string[], env: Record<string, string> = {}, timeoutMs = HANG_MS) =>
  run(['--import', 'tsx', 'src/main.ts', ...args], env, timeoutMs);

/** The process ended with `code` and exactly one line on stderr, matching `line`; no stack trace. */
export function assertOneLine(ended: Ended, code: number, line: RegExp | string): void {
  const detail = `exit ${ended.code}\nstderr:\n${ended.stderr}\nstdout:\n${ended.stdout}`;
  assert.equal(ended.code, code, detail);
  assert.doesNotMatch(ended.stderr, /^ {4}at /m, `no stack trace\n${detail}`);
  const lines = ended.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr\n${detail}`);
  if (typeof line === 'string') assert.equal(lines[0], line, detail);
  else assert.match(lines[0]!, line, detail);
}

/** Holds a TCP port (any free one, or `port`) until closed; `port` may already be taken. */
export async function holdPort(
  port = 0,
  host = '127.0.0.1',
): Promise<{ port: number; held: boolean; close(): Promise<void> }> {
  const server: Server = createServer();
  const held = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
  return {
    port: held ? (server.address() as AddressInfo).port : port,
    held,
    close: () => (held ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()),
  };
}

/** A port nothing listens on: free now, and outside the range other tests' listen(0) draws from. */
export const closedPort = (): Promise<number> => unusedPort();

/** Accepts connections and never answers: an API or RPC that hangs. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
