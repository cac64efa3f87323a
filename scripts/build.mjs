#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ (tsconfig.build.json) for production, which runs
// JavaScript, not tsx. tsc writes into a fresh directory next to dist/ that then takes its
// place, so a service starting meanwhile never loads half a build, and outputs of deleted
// sources do not linger. dist/BUILT marks when; bin/risk-scan.mjs compares it with src/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, 'BUILT');
/** What a build is made of: a change to any of these makes dist/ stale. */
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json'];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestChange(join(path, name))),
    stat.mtimeMs,
  );
}

/** Why dist/ cannot be run as it is ('missing', 'stale'), or null when it is up to date with src/. */
export function buildProblem() {
  if (!existsSync(STAMP)) return 'missing';
  const built = statSync(STAMP).mtimeMs;
  const changed = Math.max(...INPUTS.map((input) => newestChange(join(ROOT, input))));
  return changed > built ? 'stale' : null;
}

/** Compiles src/ into dist/; returns tsc's exit code, or null when TypeScript is not installed. */
export function build() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
  const fresh = join(ROOT, `dist.building-${process.pid}`);
  // Same depth as dist/: the compiled code finds package.json, fixtures/ and node_modules as src/ does.
  const ran = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', fresh], {
    stdio: ['ignore', 2, 2], // tsc's words on stderr: stdout may be piped (risk-scan call | jq)
  });
  if (ran.status !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    return ran.status ?? 1;
  }
  writeFileSync(join(fresh, 'BUILT'), `${new Date().toISOString()}\n`);
  const old = join(ROOT, `dist.old-${process.pid}`);
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(fresh, DIST);
  rmSync(old, { recursive: true, force: true });
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = build();
  if (code === null)
    console.error('npm run build needs TypeScript, a dev dependency: run npm install first.');
  process.exit(code ?? 2);
}
