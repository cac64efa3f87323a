/**
 * The seeded chain, kept on disk: seeding every scenario takes seconds, restoring a snapshot of
 * the result a fraction of one. A snapshot is used only when it was built from the same inputs —
 * its key hashes every module seeding runs (followed from the scenarios' entry through relative
 * imports, in src/ or dist/ as this runs), the mainnet dumps it loads, package-lock.json and the
 * slot length — so an edit of any of them reseeds. A missing, damaged or truncated file reseeds
 * too, saying why.
 *
 * Seeding dates its history back from the moment it runs. A snapshot taken at T and loaded Δ later
 * moves its transactions' block times, and the manifest's (`…BlockTime` fields), Δ forward, so the
 * loaded chain tells the same ages a chain seeded now would. What seeding wrote into account data
 * from the wall clock (Pyth's publish time, a lock's cliff) cannot be moved: it reads Δ older,
 * which no flag depends on, and a snapshot older than MAX_AGE_MS is seeded again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandboxChain, type SandboxChain, type SandboxChainOptions } from './chain/chain.js';
import { type ChainSnapshot, restoreSnapshot, takeSnapshot } from './chain/snapshot.js';
import { readSnapshotFile, type SnapshotRead, writeSnapshotFile } from './chain/snapshot-file.js';
import { DEFAULT_MAINNET_DUMPS, type ScenarioManifest, seedScenarios } from './scenarios/index.js';
import { standInForCpmmWithdraw } from './stand-ins/cpmm-withdraw.js';

/** After a day, what could not be moved in time has drifted enough: seed afresh. */
export const MAX_AGE_MS = 24 * 3_600_000;

export interface SeededState {
  readonly snapshot: ChainSnapshot;
  readonly manifest: ScenarioManifest;
}

export interface SeededSnapshotOptions {
  /** Where snapshots are kept; null seeds every time (nothing read or written). */
  readonly dir: string | null;
  readonly slotMs: number;
  /** Told whether the snapshot was used, and why not when it was not. */
  readonly log?: (message: string) => void;
}

export interface SeededResult extends SeededState {
  readonly source: 'snapshot' | 'seeded';
}

const SOURCE_EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const CODE_ROOT = fileURLToPath(new URL('../', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every module reachable from `entries` through relative imports (bare imports are package-lock's). */
function moduleGraph(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), match[1]!);
      pending.push(SOURCE_EXT === '.ts' ? target.replace(/\.js$/, '.ts') : target);
    }
  }
  return [...seen].sort();
}

function hashFiles(hash: ReturnType<typeof createHash>, root: string, files: readonly string[]): void {
  for (const file of files) {
    hash.update(`\0${relative(root, file)}\0`);
    hash.update(readFileSync(file));
  }
}

/** The hash of every module reachable from `entries`, named relative to `root` (not where it sits). */
export function sourcesKey(entries: readonly string[], root: string): string {
  const hash = createHash('sha256');
  hashFiles(hash, root, moduleGraph(entries));
  return hash.digest('hex');
}

/** What the seeded chain is made of, hashed: equal keys, equal chains. */
export function seedKey(slotMs: number): string {
  const hash = createHash('sha256').update(`slotMs=${slotMs}\0ext=${SOURCE_EXT}`);
  const here = fileURLToPath(import.meta.url);
  const entry = fileURLToPath(new URL(`./scenarios/index${SOURCE_EXT}`, import.meta.url));
  hash.update(sourcesKey([entry, here], CODE_ROOT));
  if (existsSync(DEFAULT_MAINNET_DUMPS)) {
    // The files seeding can read (JSON dumps); anything else beside them is not part of the chain.
    const dumps = readdirSync(DEFAULT_MAINNET_DUMPS, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
    hashFiles(
      hash,
      DEFAULT_MAINNET_DUMPS,
      dumps.map((name) => join(DEFAULT_MAINNET_DUMPS, name)),
    );
  }
  const lock = join(REPO_ROOT, 'package-lock.json');
  if (existsSync(lock)) hashFiles(hash, REPO_ROOT, [lock]);
  return hash.digest('hex');
}

/** Seeds every scenario on a private chain and returns its state. */
async function seedNow(slotMs: number): Promise<SeededState> {
  const chain = await createSandboxChain({ autoAdvance: false, slotMs });
  try {
    const manifest = await seedScenarios(chain);
    return { snapshot: takeSnapshot(chain), manifest };
  } finally {
    chain.stop();
  }
}

/** Moves every `…BlockTime` number in the manifest `seconds` forward (a fresh copy). */
function shiftManifest(manifest: ScenarioManifest, seconds: number): ScenarioManifest {
  return JSON.parse(JSON.stringify(manifest), (key, value) =>
    key.endsWith('BlockTime') && typeof value === 'number' ? value + seconds : value,
  ) as ScenarioManifest;
}

/** The state as if seeded `seconds` later: block times move, slots and accounts stay. */
export function shiftedState(state: SeededState, seconds: number): SeededState {
  const history = state.snapshot.history.map((record) => ({
    ...record,
    blockTime: record.blockTime + seconds,
  }));
  return { snapshot: { ...state.snapshot, history }, manifest: shiftManifest(state.manifest, seconds) };
}

/** How many snapshots a directory keeps: several checkouts (or a test run beside an edit) share one. */
const KEPT_SNAPSHOTS = 6;

/**
 * Snapshots of other keys only take room: those over a day old go, and beyond the newest few the
 * rest. A file written in the last minute stays, as another process may be about to read it.
 */
async function pruneOthers(dir: string, keep: string): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith('seeded-'));
  const found = await Promise.all(
    names.map(async (name) => ({
      path: join(dir, name),
      mtimeMs: (await stat(join(dir, name)).catch(() => null))?.mtimeMs,
    })),
  );
  const others = found
    .filter((f): f is { path: string; mtimeMs: number } => f.mtimeMs !== undefined && f.path !== keep)
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const [i, file] of others.entries()) {
    const age = Date.now() - file.mtimeMs;
    if (age > 60_000 && (age > MAX_AGE_MS || i >= KEPT_SNAPSHOTS - 1)) await rm(file.path, { force: true });
  }
}

function snapshotPath(dir: string, key: string): string {
  return join(resolve(dir), `seeded-${key.slice(0, 24)}.snapshot`);
}

/** Why a read snapshot cannot be used at `nowMs`, or null when it can. */
export function snapshotProblem(read: SnapshotRead<unknown>, nowMs: number): string | null {
  if (!read.ok) return read.reason;
  const age = nowMs - read.header.savedAtMs;
  if (age < 0) return 'was taken in the future (the clock moved back)';
  if (age > MAX_AGE_MS) return `is ${Math.floor(age / 3_600_000)} hours old`;
  return null;
}

interface Kept extends SeededResult {
  /** Wall-clock milliseconds when the state was seeded: block times are moved on from there. */
  readonly seededAtMs: number;
}

/** The state as the snapshot holds it (or seeded now, and kept), not yet moved in time. */
async function readOrSeed(dir: string, slotMs: number, log: (message: string) => void): Promise<Kept> {
  const key = seedKey(slotMs);
  const path = snapshotPath(dir, key);
  const read = await readSnapshotFile<SeededState>(path, key);
  const problem = snapshotProblem(read, Date.now());
  if (read.ok && problem === null) {
    log(`sandbox: the seeded chain from its snapshot ${path}`);
    return { ...read.payload, source: 'snapshot', seededAtMs: read.header.savedAtMs };
  }
  log(`sandbox: seeding the scenarios (snapshot ${path} ${problem}); kept for the next start`);
  const seeded = await seedNow(slotMs);
  // The file says the moment the state was seeded, not when it was written (serialising can take
  // a second on a busy machine): this start and the next move block times on from the same moment.
  const seededAtMs = Date.now();
  try {
    await writeSnapshotFile(path, key, seeded, seededAtMs);
    await pruneOthers(dirname(path), path);
  } catch (e) {
    log(`sandbox: the snapshot could not be written (${(e as Error).message}); the next start seeds again`);
  }
  return { ...seeded, source: 'seeded', seededAtMs };
}

function movedToNow(kept: Kept): SeededResult {
  const seconds = Math.max(0, Math.round((Date.now() - kept.seededAtMs) / 1000));
  return { ...shiftedState(kept, seconds), source: kept.source };
}

/** The seeded state from the snapshot in `dir` when it is whole and current, else seeded (and kept). */
export async function loadOrSeed(options: SeededSnapshotOptions): Promise<SeededResult> {
  const { dir, slotMs, log = () => {} } = options;
  if (dir === null) return { ...(await seedNow(slotMs)), source: 'seeded' };
  return movedToNow(await readOrSeed(dir, slotMs, log));
}

const perProcess = new Map<string, Promise<Kept>>();

/**
 * A chain of its own holding every scenario, for tests and benches: the snapshot in `dir` is read
 * (or seeded and written) once per process, and each call restores a fresh copy of it.
 * `chainOptions` default to a deterministic chain (`autoAdvance: false`); call `chain.stop()` when done.
 */
export async function snapshotSeededChain(
  dir: string,
  chainOptions: SandboxChainOptions = {},
): Promise<{ chain: SandboxChain; manifest: ScenarioManifest; source: SeededResult['source'] }> {
  const slotMs = chainOptions.slotMs ?? 400;
  const id = `${resolve(dir)} ${slotMs}`;
  if (!perProcess.has(id))
    perProcess.set(
      id,
      readOrSeed(dir, slotMs, () => {}),
    );
  const state = movedToNow(await perProcess.get(id)!);
  const chain = await createSandboxChain({ autoAdvance: false, ...chainOptions });
  restoreSeeded(chain, state);
  return { chain, manifest: state.manifest, source: state.source };
}

/** Puts a seeded state on `chain` (replacing what it held), with the stand-ins seeding installs. */
export function restoreSeeded(chain: SandboxChain, state: SeededState): void {
  restoreSnapshot(chain, state.snapshot);
  standInForCpmmWithdraw(chain);
}
