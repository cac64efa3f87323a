#!/usr/bin/env node
// Runs every *.test.ts under test/ with Node's own test runner (tsx loads TypeScript).
// Node 20's --test does not expand globs, so the file list is built here.
// Usage: npm test [-- filter]   (a filter keeps only files whose path contains it)
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function listTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = listTests('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// A file still running after FILE_TIMEOUT_MS is stopped and reported failed, so a test that hangs
// ends the run with the file named instead of running until CI gives up (the slowest file
// takes about a minute).
const FILE_TIMEOUT_MS = 10 * 60_000;
const args = [
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  '--test-concurrency=2',
  `--test-timeout=${FILE_TIMEOUT_MS}`,
  ...files,
];
// The risk-scan command runs the sources through tsx in tests: none of them builds dist/ under another.
const env = { ...process.env, RISK_SCAN_FROM_SOURCE: '1' };
const child = spawn(process.execPath, args, { stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
