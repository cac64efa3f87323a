/**
 * Seeded scenarios: every named subject the scanners must tell apart, put on a sandbox chain with real
 * transactions where the sandbox can run them, plus a JSON manifest of what each subject claims.
 *
 * Seeding builds the history on a private chain whose clock starts `spanSeconds` in the past and warps
 * forward through it, then restores the result into the caller's chain. The restore re-anchors the
 * caller's clock so the last seeded slot is "now": blockTimes span the weeks before now, never the future.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKeyPairSignerFromPrivateKeyBytes, getBase58Encoder, type KeyPairSigner } from '@solana/kit';
import { createSandboxChain, type SandboxChain, type SandboxChainOptions } from '../chain/chain.js';
import { type ChainSnapshot, restoreSnapshot, takeSnapshot } from '../chain/snapshot.js';
import { standInForCpmmWithdraw } from '../stand-ins/cpmm-withdraw.js';
import { DEFAULT_SCENARIO_SEED, KeyRing } from './builders/keys.js';
import { DAY, Timeline } from './builders/timeline.js';
import type { ScenarioContext } from './context.js';
import type { ScenarioManifest } from './manifest.js';
import { programElf } from './programs.js';
import { runSchedule, type ScenarioEntry, type Seeding } from './runner.js';
import { SCENARIOS } from './schedule.js';

export type * from './manifest.js';
export { action, simulation, subject } from './manifest.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Real mainnet account dumps, kept in the repository (provenance: fixtures/mainnet/PROVENANCE.md). */
export const DEFAULT_MAINNET_DUMPS = resolve(REPO_ROOT, 'fixtures/mainnet/accounts');
export const DEFAULT_SPAN_SECONDS = 45 * DAY;

export interface SeedScenariosOptions {
  /** Keys are derived from it, so the same seed gives the same addresses. */
  seed?: string;
  /** Directory of `solana account --output json` dumps; null skips them. Default: DEFAULT_MAINNET_DUMPS when present. */
  mainnetDumps?: string | null;
  /** How far back the history reaches. Default 45 days. */
  spanSeconds?: number;
  /** The scenario entries to seed, in any order (the runner orders them by time). Default: SCENARIOS. */
  entries?: readonly ScenarioEntry[];
}

/**
 * Seeds every scenario into `chain` and returns the manifest. The chain's previous state is replaced
 * (seed a fresh chain, then add to it). Takes about a second; see `seededChain` for a cached copy.
 */
export async function seedScenarios(
  chain: SandboxChain,
  options: SeedScenariosOptions = {},
): Promise<ScenarioManifest> {
  const spanSeconds = options.spanSeconds ?? DEFAULT_SPAN_SECONDS;
  if (spanSeconds < 21 * DAY) throw new RangeError('scenarios need a span of at least 21 days');
  const builder = await createSandboxChain({
    autoAdvance: false,
    slotMs: chain.slotMs,
    startSlot: chain.slot,
    genesisHash: chain.genesisHash,
    now: () => Date.now() - spanSeconds * 1000,
  });
  const keys = new KeyRing(options.seed ?? DEFAULT_SCENARIO_SEED);
  const timeline = new Timeline(builder, spanSeconds);
  const context: ScenarioContext = {
    chain: builder,
    keys,
    timeline,
    subjects: [],
    simulations: [],
    programElf: programElf({ chain: builder }),
  };
  const dumps = options.mainnetDumps === undefined ? DEFAULT_MAINNET_DUMPS : options.mainnetDumps;
  const seeding: Seeding = {
    context,
    mainnetDumps: dumps !== null && (options.mainnetDumps !== undefined || existsSync(dumps)) ? dumps : null,
  };
  await runSchedule(seeding, options.entries ?? SCENARIOS);

  const manifest: ScenarioManifest = {
    format: 'solana-risk-scan/scenarios@1',
    seed: keys.seed,
    spanSeconds,
    startSlot: timeline.startSlot.toString(),
    endSlot: builder.slot.toString(),
    usdc: seeding.usdc ?? usdcMissing(),
    subjects: context.subjects,
    simulations: context.simulations,
  };
  restoreSnapshot(chain, takeSnapshot(builder));
  builder.stop();
  standInForCpmmWithdraw(chain);
  return manifest;
}

function usdcMissing(): never {
  throw new Error('scenario schedule: no step seeded USDC');
}

/** The sandbox USDC mint authority, from the manifest, for minting test USDC. */
export function usdcMintAuthority(manifest: ScenarioManifest): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(
    new Uint8Array(getBase58Encoder().encode(manifest.usdc.mintAuthorityPrivateKey)),
  );
}

interface SeededState {
  snapshot: ChainSnapshot;
  manifest: ScenarioManifest;
  seedMs: number;
}

let seeded: Promise<SeededState> | undefined;

async function seedOnce(): Promise<SeededState> {
  const started = performance.now();
  const chain = await createSandboxChain({ autoAdvance: false });
  const manifest = await seedScenarios(chain);
  const snapshot = takeSnapshot(chain);
  chain.stop();
  return { snapshot, manifest, seedMs: performance.now() - started };
}

export interface SeededChain {
  chain: SandboxChain;
  manifest: ScenarioManifest;
  /** Milliseconds the one-time seeding took in this process, and this restore. */
  timings: { seedMs: number; restoreMs: number };
}

/**
 * A chain holding every scenario. Seeds once per process (default options) and restores a cached
 * snapshot for each call, so a test file gets its own seeded chain in tens of milliseconds.
 * `chainOptions` default to a deterministic chain (`autoAdvance: false`); call `chain.stop()` when done.
 */
export async function seededChain(chainOptions: SandboxChainOptions = {}): Promise<SeededChain> {
  seeded ??= seedOnce();
  const { snapshot, manifest, seedMs } = await seeded;
  const started = performance.now();
  const chain = await createSandboxChain({ autoAdvance: false, ...chainOptions });
  restoreSnapshot(chain, snapshot);
  standInForCpmmWithdraw(chain);
  return {
    chain,
    manifest: structuredClone(manifest),
    timings: { seedMs, restoreMs: performance.now() - started },
  };
}
