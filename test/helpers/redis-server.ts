/**
 * A real redis-server for tests: its own free port and temporary directory, nothing persisted
 * unless asked (`persist`), killed when the test process exits so no server outlives its tests.
 * Needs `redis-server` on PATH (`.ci/install-system-packages.sh` installs it); without it
 * startRedis rejects at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from './ports.js';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Shuts the server down and removes its directory. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or a lost host would. */
  kill(): Promise<void>;
  /** Starts the server again on the same port: empty, or with its data when started with `persist`. */
  restart(): Promise<void>;
}

export interface RedisOptions {
  readonly maxmemoryPolicy?: string;
  /**
   * Every write is in the append-only file before Redis answers it (`appendfsync always`), so
   * kill() and restart() keep the data, as a production Redis holding payment state must.
   */
  readonly persist?: boolean;
}

const READY_TIMEOUT_MS = 10_000;
const MISSING =
  'redis-server is not on PATH: install it (Debian: apt-get install redis-server; CI runs .ci/install-system-packages.sh)';

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-test-'));
  const args = (port: number) => [
    ...['--port', String(port), '--bind', '127.0.0.1', '--save', ''],
    ...(options.persist === true
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no']),
    ...['--dir', dir, '--daemonize', 'no'],
    ...(options.maxmemoryPolicy === undefined ? [] : ['--maxmemory-policy', options.maxmemoryPolicy]),
  ];
  let port = 0;
  let child: ChildProcess | undefined;
  // The free port can be taken between finding and binding it: try a few.
  for (let attempt = 0; child === undefined; attempt++) {
    port = await unusedPort();
    try {
      child = await launch(args(port), port);
    } catch (error) {
      if (attempt >= 4 || !String(error).includes('Address already in use')) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let current: ChildProcess = child;
  const end = (signal: NodeJS.Signals) => exited(current, signal);
  // A server only killed (never stopped) still leaves no directory behind.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
    async restart() {
      await end('SIGKILL');
      current = await launch(args(port), port);
    },
  };
}

/** Spawns redis-server and resolves once it answers PING; rejects with its output if it exits. */
async function launch(args: string[], port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  let output = '';
  let gone = false;
  child.once('exit', () => (gone = true));
  child.once('error', () => (gone = true));
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const failure = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(MISSING) : error),
    );
    child.once('exit', (code, signal) =>
      reject(new Error(`redis-server exited (${code ?? signal}) before answering:\n${output.trim()}`)),
    );
  });
  failure.catch(() => undefined);
  await Promise.race([failure, answersPing(port, () => gone)]);
  return child;
}

async function answersPing(port: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await pingOnce(port))) {
    if (gone()) return; // its exit has already rejected the launch
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
