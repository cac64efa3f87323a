/**
 * `npm start` in sandbox mode (compiled, `node bin/risk-scan.mjs serve`, dist/ built first) from
 * launch to a /health that answers, three ways, interleaved round by round so a disturbance of
 * the machine falls on all of them:
 *   - seeding   every start seeds the scenarios (SANDBOX_SNAPSHOT_DIR=none: how main starts);
 *   - first     the first start with the snapshot: an empty snapshot directory, so it seeds and
 *               writes the snapshot;
 *   - later     a start that finds the snapshot written before and restores it.
 * Min / median / max over the rounds; the ratio later ÷ seeding is per round.
 *
 *   BENCH_ONLY=start npm run bench        (BENCH_ROUNDS=5)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printTable, showSpread, spread } from './lib/report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
type Variant = 'seeding' | 'first' | 'later';
const VARIANTS: readonly Variant[] = ['seeding', 'first', 'later'];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function untilHealthy(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the sandbox exited (${child.exitCode}) before /health answered`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Milliseconds from launching `npm start`'s command to a healthy /health. */
async function startOnce(snapshotDir: string): Promise<number> {
  const port = await freePort();
  const sandboxDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    SANDBOX_DIR: sandboxDir,
    SANDBOX_RPC_PORT: '0',
    SANDBOX_FACILITATOR_PORT: '0',
    SANDBOX_SNAPSHOT_DIR: snapshotDir,
  };
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/risk-scan.mjs', 'serve'], { cwd: ROOT, env, stdio: 'ignore' });
  try {
    await untilHealthy(`http://127.0.0.1:${port}`, child);
    return performance.now() - started;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(sandboxDir, { recursive: true, force: true });
  }
}

export async function runSandboxStartBench({ rounds }: { rounds: number }) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const kept = mkdtempSync(join(tmpdir(), 'bench-snapshots-'));
  const times: Record<Variant, number[]> = { seeding: [], first: [], later: [] };
  try {
    await startOnce(kept); // writes the snapshot the `later` starts find
    for (let round = 0; round < rounds; round++) {
      for (const variant of VARIANTS) {
        const empty = mkdtempSync(join(tmpdir(), 'bench-snapshots-'));
        const dir = variant === 'seeding' ? 'none' : variant === 'first' ? empty : kept;
        times[variant].push(await startOnce(dir));
        rmSync(empty, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(kept, { recursive: true, force: true });
  }
  const ratios = times.later.map((ms, i) => ms / times.seeding[i]!);
  const seconds = (values: number[]) => showSpread(spread(values.map((ms) => ms / 1000)), 1);
  printTable(
    `npm start (sandbox) to a healthy /health, ${rounds} interleaved rounds: median (min–max), seconds`,
    ['start', 'seconds', 'later ÷ seeding'],
    [
      ['seeding at every start (SANDBOX_SNAPSHOT_DIR=none, as main)', seconds(times.seeding), '1'],
      ['first start with the snapshot (seeds, writes it)', seconds(times.first), ''],
      ['later starts (restore the snapshot)', seconds(times.later), showSpread(spread(ratios))],
    ],
  );
  return { rounds, ms: times, laterOverSeeding: { ...spread(ratios), median: median(ratios) } };
}
