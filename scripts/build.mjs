#!/usr/bin/env node
// `npm run build`: compiles the workspace packages (packages/*, each to its own dist/, the ones
// others depend on first), then src/ to dist/ (tsconfig.build.json) for production, which runs
// JavaScript, not tsx: the compiled service loads @solana-risk-scan/client from
// packages/client/dist through node_modules, as any user of the package would. tsc writes into a
// fresh directory next to dist/ that then takes its place, so a service starting meanwhile never
// loads half a build, and outputs of deleted sources do not linger. dist/BUILT marks when;
// bin/risk-scan.mjs compares it with src/ and the packages' sources. A package's own dist/BUILT
// lets a package already built from its current sources be used as it is (docs/development.md).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

/** When packages/`dir` was last compiled (its dist/BUILT), or 0 when it has no complete build. */
function packageBuiltAt(dir) {
  const stamp = join(PACKAGES, dir, 'dist', 'BUILT');
  return existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
}

/**
 * Whether packages/`dir`/dist is newer than all it is made of: its sources, package.json and build
 * configuration, the root tsconfig.json it extends, and the builds of the packages it depends on.
 */
function packageUpToDate(dir, dependencies) {
  const built = packageBuiltAt(dir);
  if (built === 0) return false;
  const inputs = ['src', 'package.json', 'tsconfig.build.json'].map((f) => join(PACKAGES, dir, f));
  const changed = Math.max(
    ...[...inputs, join(ROOT, 'tsconfig.json')].map(newestChange),
    ...dependencies.map(packageBuiltAt),
  );
  return changed < built;
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the process named in `lock` still runs (a lock whose build died is stale). */
function lockHeld(lock) {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes the lock directory `lock` (made whole elsewhere, then renamed: it never lacks its pid), or false. */
function tryLock(lock) {
  const mine = `${lock}-${process.pid}`;
  mkdirSync(mine, { recursive: true });
  writeFileSync(join(mine, 'pid'), String(process.pid));
  try {
    renameSync(mine, lock);
    return true;
  } catch (e) {
    rmSync(mine, { recursive: true, force: true });
    if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    return false;
  }
}

/** `work` under the lock directory `lock`, taken once no other live build holds it. */
function underLock(lock, work) {
  while (!tryLock(lock)) {
    if (lockHeld(lock)) pause(200);
    else rmSync(lock, { recursive: true, force: true });
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Compiles packages/`dir` unless its dist/ is up to date. Test runs pack several packages that
 * each build the client first (their prepack), some at once: a build already made, or being made
 * by another process (which this one waits for), is used as it is, so the client compiles once.
 */
function buildPackage(tsc, dir) {
  const dependencies = packagesInBuildOrder(dir).filter((d) => d !== dir);
  if (packageUpToDate(dir, dependencies)) return 0;
  return underLock(join(PACKAGES, dir, 'dist.lock'), () => {
    if (packageUpToDate(dir, dependencies)) return 0;
    console.error(`build: compiling packages/${dir}`);
    return compile(tsc, join(PACKAGES, dir), true);
  });
}

/**
 * Compiles the packages not up to date, then src/ into dist/ (or only the package `only`, as its
 * prepack asks); returns tsc's exit code, or null when TypeScript is not installed.
 */
export function build(only) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
  for (const dir of packagesInBuildOrder(only)) {
    const code = buildPackage(tsc, dir);
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
