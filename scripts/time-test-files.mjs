#!/usr/bin/env node
// Times test files: runs the files whose path contains a filter, two at a time (as `npm test`
// does), each in its own `node --test` process, and prints each file's wall time, slowest first.
// Usage: node scripts/time-test-files.mjs <fragment> [...]   (never the whole suite on a shared machine)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const listTests = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });

const filters = process.argv.slice(2);
if (filters.length === 0) {
  console.error('name at least one path fragment');
  process.exit(1);
}
const queue = listTests('test')
  .filter((f) => filters.some((x) => f.includes(x)))
  .sort();
const env = { ...process.env, RISK_SCAN_FROM_SOURCE: '1' };
const times = [];

function runOne(file) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', file], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
    child.on('exit', (code) => {
      times.push({ file, seconds: (performance.now() - started) / 1000, code });
      resolve();
    });
  });
}

async function worker() {
  for (let file = queue.shift(); file; file = queue.shift()) await runOne(file);
}

const started = performance.now();
await Promise.all([worker(), worker()]);
for (const t of times.sort((a, b) => b.seconds - a.seconds))
  console.log(`${t.seconds.toFixed(1).padStart(7)} s  ${t.code === 0 ? 'ok  ' : 'FAIL'}  ${t.file}`);
console.log(
  `${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s  wall, ${times.length} files`,
);
