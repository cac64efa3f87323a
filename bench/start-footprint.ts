/**
 * Start time and resident memory of the service, run from the TypeScript sources through tsx
 * (what `npm start` was: `tsx src/main.ts`) and compiled (`npm start` now: `node
 * bin/risk-scan.mjs serve`, dist/ built first). Per run: process start → /health answering, the
 * RSS of the whole process tree (tsx runs the service in a child of its own) once /health
 * answers, and again after a few requests (/health, 402 offers, /openapi.json, /docs). Variants
 * alternate run by run, so a disturbance of the machine falls on both; min / median / max.
 *
 *   npx tsx bench/start-footprint.ts [runs=5] [mode=mainnet|sandbox]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const mode = process.argv[3] ?? 'mainnet';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const PAY_TO = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

const VARIANTS = {
  tsx: ['node_modules/tsx/dist/cli.mjs', 'src/main.ts'],
  compiled: ['bin/risk-scan.mjs', 'serve'],
} as const;

function childPids(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

/** Resident kB of a process and all its descendants (Linux /proc). */
function rssKb(pid: number): number {
  let own = 0;
  try {
    own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
  return (
    own +
    childPids(pid)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .reduce((sum, child) => sum + rssKb(Number(child)), 0)
  );
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function envFor(port: number): Promise<Record<string, string>> {
  const base = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'warn',
    PORT: String(port),
  };
  const dir = mkdtempSync(join(tmpdir(), 'start-footprint-'));
  if (mode === 'sandbox')
    return { ...base, SANDBOX_DIR: dir, SANDBOX_RPC_PORT: '0', SANDBOX_FACILITATOR_PORT: '0' };
  // Nothing answers the facilitator or the RPC: the start measures the service alone.
  return {
    ...base,
    PAY_TO,
    HOST: '127.0.0.1',
    STATE_DIR: dir,
    VERIFIED_TOKENS_URL: 'none',
    FACILITATOR_URLS: `http://127.0.0.1:${await freePort()}`,
    SOLANA_RPC_URL: `http://127.0.0.1:${await freePort()}`,
  };
}

async function untilHealth(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}`);
    if (
      await fetch(`${url}/health`).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function someRequests(url: string): Promise<void> {
  for (let i = 0; i < 10; i++) await (await fetch(`${url}/scan/token/${USDC}`)).arrayBuffer();
  for (const path of ['/health', '/openapi.json', '/docs', '/.well-known/x402.json'])
    await (await fetch(`${url}${path}`)).arrayBuffer();
}

async function once(variant: keyof typeof VARIANTS) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...VARIANTS[variant]], { env: await envFor(port), stdio: 'ignore' });
  try {
    await untilHealth(url, child);
    const startMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, 500)); // settles what the start left running
    const rssStart = rssKb(child.pid!);
    await someRequests(url);
    const rssAfter = rssKb(child.pid!);
    return { startMs, rssStartMb: rssStart / 1024, rssAfterMb: rssAfter / 1024 };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const fmt = (v: number) => v.toFixed(0);
  return `${fmt(sorted[0]!)} / ${fmt(sorted[Math.floor(sorted.length / 2)]!)} / ${fmt(sorted.at(-1)!)}`;
};

execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const results: Record<string, { startMs: number; rssStartMb: number; rssAfterMb: number }[]> = {
  tsx: [],
  compiled: [],
};
for (let i = 0; i < runs; i++)
  for (const variant of ['tsx', 'compiled'] as const) results[variant]!.push(await once(variant));
console.log(`mode ${mode}, ${runs} runs each (min / median / max)`);
for (const [variant, rows] of Object.entries(results)) {
  console.log(
    `${variant.padEnd(9)} start ${spread(rows.map((r) => r.startMs))} ms   RSS after start ${spread(rows.map((r) => r.rssStartMb))} MB   after requests ${spread(rows.map((r) => r.rssAfterMb))} MB`,
  );
}
