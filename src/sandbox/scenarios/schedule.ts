/**
 * The scenarios as data: one entry per seeding step, saying when on the timeline it starts, what it
 * is called, which kinds of subject it adds to the manifest and how it is built. `runSchedule`
 * orders the entries by their time and runs them; nothing else decides the order.
 *
 * Times count from the end of the span (`days(-45)`: 45 days before the end, which the restore maps
 * to wall-clock now). Entries that share a time run one after another, in the order listed, from
 * that time: only a new time moves the timeline. `at: 'start'` is set-up at the start of the span
 * (accounts written directly, the mints everything else needs).
 */
import { attachActions, seedDevHolding } from './actions.js';
import { DAY, HOUR, MINUTE } from './builders/timeline.js';
import type { ScenarioContext } from './context.js';
import { seedCopycats } from './copycats.js';
import { seedCreatorHistory } from './creator-history.js';
import { seedGovernedPrograms } from './governed.js';
import { seedGovernedTokens } from './governed-tokens.js';
import { fundInsiders, seedInsiderLaunches } from './insiders.js';
import { seedLaunches } from './launches.js';
import { seedLiquidityScenarios } from './liquidity.js';
import { seedMainnetDumps } from './mainnet.js';
import type { ScenarioKind, ScenarioManifest } from './manifest.js';
import { type ProgramsInProgress, seedLatestUpgrade, seedPrograms, seedStandInPrograms } from './programs.js';
import { seedPumpfun } from './pumpfun.js';
import { seedSimulations } from './simulations.js';
import { seedSolUsdPrice } from './sol-price.js';
import { seedToken2022Mints } from './token-2022.js';
import { seedSplTokens, seedUsdc } from './tokens.js';
import { seedTransactions } from './transactions.js';
import { seedTransferHookMints } from './transfer-hooks.js';
import {
  seedBurnerWallet,
  seedHighFailureWallet,
  seedOldWalletHistory,
  seedOldWalletRecent,
  type WalletLedger,
} from './wallets.js';

/** Seconds relative to the end of the span: negative is before it. */
export const days = (n: number): number => n * DAY;
export const hours = (n: number): number => n * HOUR;
export const minutes = (n: number): number => n * MINUTE;

/** What one step hands a later one (the USDC mint, the old wallet's ledger, the programs to upgrade). */
export interface Seeding {
  context: ScenarioContext;
  /** Directory of mainnet account dumps to load, or null. */
  mainnetDumps: string | null;
  usdc?: ScenarioManifest['usdc'];
  oldWallet?: WalletLedger;
  programs?: ProgramsInProgress;
}

export interface ScenarioEntry {
  /** When the step starts: seconds relative to the end (negative), or the start of the span. */
  at: number | 'start';
  name: string;
  /** The kinds of subject it adds to the manifest (none: accounts that other subjects use). */
  kinds: readonly ScenarioKind[];
  build: (seeding: Seeding) => Promise<void>;
}

/** A value an earlier step hands on; its absence is an ordering mistake in the schedule. */
function handedOn<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`scenario schedule: ${what} is built by an earlier step`);
  return value;
}

export const SCENARIOS: readonly ScenarioEntry[] = [
  {
    at: 'start',
    name: 'mainnet account dumps',
    kinds: ['token', 'pumpfun', 'program'],
    build: async ({ context, mainnetDumps }) => {
      if (mainnetDumps !== null) await seedMainnetDumps(context, mainnetDumps);
    },
  },
  {
    at: 'start',
    name: 'stand-in programs',
    kinds: ['program'],
    build: ({ context }) => seedStandInPrograms(context),
  },
  {
    at: 'start',
    name: 'governed programs',
    kinds: ['program'],
    build: ({ context }) => seedGovernedPrograms(context),
  },
  { at: 'start', name: 'SOL/USD price', kinds: [], build: ({ context }) => seedSolUsdPrice(context) },
  {
    at: 'start',
    name: 'USDC',
    kinds: [],
    build: async (seeding) => {
      seeding.usdc = await seedUsdc(seeding.context);
    },
  },
  {
    at: days(-45),
    name: 'old wallet, 45 → 21 days before the end',
    kinds: [],
    build: async (seeding) => {
      seeding.oldWallet = await seedOldWalletHistory(seeding.context);
    },
  },
  {
    at: days(-20.5),
    name: 'established SPL tokens',
    kinds: ['token'],
    build: ({ context }) => seedSplTokens(context),
  },
  {
    at: days(-20.5),
    name: 'their governed twins',
    kinds: ['token'],
    build: ({ context }) => seedGovernedTokens(context),
  },
  {
    at: days(-20.5),
    name: 'tokens with pools, and one without',
    kinds: ['token'],
    build: ({ context }) => seedLiquidityScenarios(context),
  },
  {
    at: days(-20),
    name: 'programs, deployed and upgraded 20 → 3 days before the end',
    kinds: [],
    build: async (seeding) => {
      seeding.programs = await seedPrograms(seeding.context);
    },
  },
  // A day old, so a fee scheduled 2 epochs ahead is still in the future at the end.
  {
    at: days(-1),
    name: 'Token-2022 mints',
    kinds: ['token'],
    build: ({ context }) => seedToken2022Mints(context),
  },
  {
    at: days(-1),
    name: 'transfer-hook mints',
    kinds: ['token'],
    build: ({ context }) => seedTransferHookMints(context),
  },
  { at: days(-1), name: 'copycat tickers', kinds: ['token'], build: ({ context }) => seedCopycats(context) },
  {
    at: hours(-12),
    name: 'pump.fun curves and pools, 12 → 6 hours',
    kinds: ['pumpfun', 'wallet'],
    build: ({ context }) => seedPumpfun(context),
  },
  {
    at: hours(-5.5),
    name: 'latest program upgrade, and the program subjects',
    kinds: ['program'],
    build: ({ context, programs }) => seedLatestUpgrade(context, handedOn(programs, 'the programs')),
  },
  {
    at: hours(-5),
    name: 'high-failure wallet, 5 → 3 hours',
    kinds: ['wallet'],
    build: ({ context }) => seedHighFailureWallet(context),
  },
  {
    at: hours(-2.9),
    name: 'launches, 2.9 → 2.3 hours',
    kinds: ['pumpfun'],
    build: ({ context }) => seedLaunches(context),
  },
  {
    at: hours(-2.24),
    name: 'creator history, 2.24 → 2.1 hours',
    kinds: ['pumpfun'],
    build: ({ context }) => seedCreatorHistory(context),
  },
  {
    at: hours(-2),
    name: 'old wallet, recent payments 2 → 1 hour',
    kinds: ['wallet'],
    build: ({ context, oldWallet }) => seedOldWalletRecent(context, handedOn(oldWallet, 'the old wallet')),
  },
  { at: hours(-0.98), name: 'insiders funded', kinds: [], build: ({ context }) => fundInsiders(context) },
  {
    at: hours(-0.33),
    name: 'insider launches',
    kinds: ['pumpfun', 'token'],
    build: ({ context }) => seedInsiderLaunches(context),
  },
  {
    at: minutes(-10),
    name: 'burner wallet',
    kinds: ['wallet'],
    build: ({ context }) => seedBurnerWallet(context),
  },
  { at: minutes(-5), name: 'transactions', kinds: ['tx'], build: ({ context }) => seedTransactions(context) },
  // Accounts for transactions to simulate, never sent.
  { at: minutes(-5), name: 'simulations', kinds: [], build: ({ context }) => seedSimulations(context) },
  // Last, so no earlier subject's signatures move: a dev buy its creator can still dump.
  {
    at: minutes(-4),
    name: 'dev holding',
    kinds: ['pumpfun'],
    build: ({ context }) => seedDevHolding(context),
  },
  // At the end: the actions (transactions a test can send) of the subjects seeded above.
  { at: 0, name: 'actions', kinds: [], build: ({ context }) => attachActions(context) },
];

const startsAt = (entry: ScenarioEntry): number => (entry.at === 'start' ? -Infinity : entry.at);

/** The entries earliest first; entries at the same time keep the order they are listed in. */
export function inTimelineOrder(entries: readonly ScenarioEntry[]): ScenarioEntry[] {
  return [...entries].sort((a, b) => (startsAt(a) === startsAt(b) ? 0 : startsAt(a) - startsAt(b)));
}

/**
 * Runs every entry in timeline order, moving the timeline to each new time first. A subject of a
 * kind its entry does not declare throws: the entry's `kinds` say what it seeds.
 */
export async function runSchedule(
  seeding: Seeding,
  entries: readonly ScenarioEntry[] = SCENARIOS,
): Promise<void> {
  const { timeline, subjects } = seeding.context;
  let previous: ScenarioEntry['at'] | undefined;
  for (const entry of inTimelineOrder(entries)) {
    if (entry.at !== previous && entry.at !== 'start') timeline.moveTo(-entry.at);
    previous = entry.at;
    const before = subjects.length;
    await entry.build(seeding);
    const stray = subjects.slice(before).find((subject) => !entry.kinds.includes(subject.kind));
    if (stray) throw new Error(`scenario ${entry.name} seeded ${stray.name}, not of its kinds`);
  }
}
