#!/usr/bin/env node
// `npm run build`: compiles the workspace packages (packages/*, each to its own dist/, the ones
// others depend on first), then src/ to dist/ (tsconfig.build.json) for production, which runs
// JavaScript, not tsx: the compiled service loads @solana-risk-scan/client from
// packages/client/dist through node_modules, as any user of the package would. tsc writes into a
// fresh directory next to dist/ that then takes its place, so a service starting meanwhile never
// loads half a build, and outputs of deleted sources do not linger. dist/BUILT marks when;
// bin/risk-scan.mjs compares it with src/ and the packages' sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, 'BUILT');
const PACKAGES = join(ROOT, 'packages');

/**
 * The workspace packages with a build (packages/<dir>/tsconfig.build.json), each after those it
 * depends on; with `only`, that package and the workspace packages it depends on.
 */
export function packagesInBuildOrder(only) {
  const found = existsSync(PACKAGES)
    ? readdirSync(PACKAGES).filter((dir) => existsSync(join(PACKAGES, dir, 'tsconfig.build.json')))
    : [];
  const manifests = new Map(
    found.map((dir) => [dir, JSON.parse(readFileSync(join(PACKAGES, dir, 'package.json'), 'utf8'))]),
  );
  const dirOf = new Map([...manifests].map(([dir, pkg]) => [pkg.name, dir]));
  const ordered = [];
  const visit = (dir) => {
    if (ordered.includes(dir)) return;
    const pkg = manifests.get(dir);
    if (pkg === undefined) throw new Error(`no package packages/${dir} with a tsconfig.build.json`);
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies });
    for (const dep of deps) if (dirOf.has(dep) && dirOf.get(dep) !== dir) visit(dirOf.get(dep));
    ordered.push(dir);
  };
  for (const dir of only === undefined ? [...manifests.keys()].sort() : [only]) visit(dir);
  return ordered;
}

/** What a build is made of: a change to any of these makes dist/ stale. */
const INPUTS = [
  'src',
  'tsconfig.json',
  'tsconfig.build.json',
  ...packagesInBuildOrder().flatMap((dir) => [
    join('packages', dir, 'src'),
    join('packages', dir, 'tsconfig.build.json'),
  ]),
];

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

/** Compiles `dir`'s tsconfig.build.json into `dir`/dist through a fresh directory; tsc's exit code. */
function compile(tsc, dir, stamp) {
  const fresh = join(dir, `dist.building-${process.pid}`);
  // Same depth as dist/: the compiled code finds package.json, fixtures/ and node_modules as src/ does.
  const ran = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json'), '--outDir', fresh], {
    stdio: ['ignore', 2, 2], // tsc's words on stderr: stdout may be piped (risk-scan call | jq)
  });
  if (ran.status !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    return ran.status ?? 1;
  }
  if (stamp) writeFileSync(join(fresh, 'BUILT'), `${new Date().toISOString()}\n`);
  const dist = join(dir, 'dist');
  const old = join(dir, `dist.old-${process.pid}`);
  // Another build (npm pack's prepack, a test) may put its dist/ in place between the two
  // renames: this one then moves that aside too and takes its place.
  for (;;) {
    try {
      renameSync(dist, `${old}-${Date.now()}`);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
    try {
      renameSync(fresh, dist);
      break;
    } catch (e) {
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    }
  }
  for (const name of readdirSync(dir))
    if (name.startsWith(`dist.old-${process.pid}-`))
      rmSync(join(dir, name), { recursive: true, force: true });
  return 0;
}

/**
 * Compiles the packages, then src/ into dist/ (or only the package `only`, as its prepack asks);
 * returns tsc's exit code, or null when TypeScript is not installed.
 */
export function build(only) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
  for (const dir of packagesInBuildOrder(only)) {
    const code = compile(tsc, join(PACKAGES, dir), false);
    if (code !== 0) return code;
  }
  return only === undefined ? compile(tsc, ROOT, true) : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--package client`: only packages/client and the packages it depends on (its prepack, before npm pack).
  const at = process.argv.indexOf('--package');
  const code = build(at === -1 ? undefined : process.argv[at + 1]);
  if (code === null)
    console.error('npm run build needs TypeScript, a dev dependency: run npm install first.');
  process.exit(code ?? 2);
}
