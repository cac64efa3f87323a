/**
 * The scenarios as data: one entry per seeding step, saying when on the timeline it runs, what it
 * is called, what a scan of each subject it makes must answer, and how it is built. The runner
 * (runner.ts) orders the entries by `at`, never by where they are listed; they are listed in that
 * order anyway, so the list reads as the timeline.
 *
 * Times count from the end of the span (`days(-45)`: 45 days before the end). `'start'` is set-up at
 * the start of the span (accounts written directly, the mints everything else needs); `{ after }`
 * runs right after the named entry, from where it left the timeline.
 */
import { attachActions, seedDevHolding } from './actions.js';
import { DAY, HOUR, MINUTE } from './builders/timeline.js';
import { seedCopycats } from './copycats.js';
import { seedCreatorHistory } from './creator-history.js';
import { scan } from './expectations.js';
import { seedGovernedPrograms } from './governed.js';
import { seedGovernedTokens } from './governed-tokens.js';
import { fundInsiders, seedInsiderLaunches } from './insiders.js';
import { seedLaunches } from './launches.js';
import { seedLiquidityScenarios } from './liquidity.js';
import { seedMainnetDumps } from './mainnet.js';
import { MAINNET_FLAG_EXPECTATIONS } from './mainnet-flags.js';
import { seedLatestUpgrade, seedPrograms, seedStandInPrograms } from './programs.js';
import { seedPumpfun } from './pumpfun.js';
import {
  RING_COINS,
  ringName,
  SERIAL_COINS,
  SERIAL_DEAD,
  seedRelatedLaunches,
  serialName,
} from './related-launches.js';
import type { ScenarioEntry } from './runner.js';
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
} from './wallets.js';

/** Seconds relative to the end of the span: negative is before it. */
export const days = (n: number): number => n * DAY;
export const hours = (n: number): number => n * HOUR;
export const minutes = (n: number): number => n * MINUTE;

/** A value an earlier step hands on; its absence is an ordering mistake in the schedule. */
function handedOn<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`scenario schedule: ${what} is built by an earlier step`);
  return value;
}

const AUTHORITIES = ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE'] as const;
const STAND_IN = scan('program', {
  flags: ['PROGRAM_IMMUTABLE'],
  notFlags: ['UPGRADE_AUTHORITY_SINGLE_KEY', 'NOT_A_PROGRAM'],
});
/** Held by a proven multisig or DAO, by one key, or by a forged governance: the same flags. */
const GOVERNED_TOKEN = scan('token', {
  flags: [...AUTHORITIES, 'MARKET_NONE'],
  notFlags: [],
  onlyFlags: true,
});
const NO_POOL_TROUBLE = ['MARKET_NONE', 'LIQUIDITY_THIN', 'LIQUIDITY_UNAVAILABLE'] as const;
const LP_SAFE = scan('token', {
  flags: ['LP_BURNED_OR_LOCKED'],
  notFlags: ['LP_PULLABLE', 'MARKET_NONE', 'LIQUIDITY_THIN', 'LIQUIDITY_UNAVAILABLE', 'HOLDER_TOP1_HIGH'],
});
const LP_PULLABLE = scan('token', {
  flags: ['LP_PULLABLE'],
  notFlags: ['LP_BURNED_OR_LOCKED', ...NO_POOL_TROUBLE],
});
const REFUSING_HOOK = scan('token', {
  flags: ['TRANSFER_HOOK_ACTIVE', 'TRANSFER_BLOCKED'],
  notFlags: ['TRANSFER_SIMULATION_UNAVAILABLE', 'TRANSFER_UNDECLARED_CUT'],
});
const COPY = scan('token', {
  flags: ['IMPERSONATES_VERIFIED_TOKEN'],
  notFlags: ['METADATA_MISSING', 'METADATA_MUTABLE', 'TRUSTED_ISSUER', 'MINT_AUTHORITY_ACTIVE'],
});
/** The newest coin of a serial launcher: its creator's dead launches, on a curve that barely moved. */
const DEAD_SERIAL_LAUNCH = {
  flags: ['CREATOR_SERIAL_LAUNCHER', 'CURVE_EARLY'],
  notFlags: ['NOT_PUMPFUN_MINT', ...AUTHORITIES, 'LIQUIDITY_THIN'],
} as const;
const LAUNCH_FLAGS = ['LAUNCH_BUNDLED', 'LAUNCH_SNIPERS_HOLD', 'LAUNCH_INSIDERS'] as const;
const NOT_LAUNCH = [
  'LAUNCH_INSIDERS',
  'LAUNCH_BUNDLED',
  'NOT_PUMPFUN_MINT',
  'MINT_AUTHORITY_ACTIVE',
] as const;

/** The related-launches cluster (related-launches.ts): a serial creator's coins, and the ring's. */
const SNIPED = ['LAUNCH_BUNDLED', 'LAUNCH_SNIPERS_HOLD', 'INSIDER_CLUSTER'] as const;
const RELATED_SERIAL_DEAD = scan('pumpfun', {
  flags: ['CREATOR_SERIAL_LAUNCHER', 'CURVE_EARLY'],
  notFlags: [...SNIPED, 'NOT_PUMPFUN_MINT', 'MINT_AUTHORITY_ACTIVE', 'CREATOR_HOLDS_SUPPLY'],
});
const RELATED_SERIAL_SNIPED = scan('pumpfun', {
  flags: ['CREATOR_SERIAL_LAUNCHER', ...SNIPED],
  notFlags: ['NOT_PUMPFUN_MINT', 'MINT_AUTHORITY_ACTIVE', 'CREATOR_HOLDS_SUPPLY'],
});
const RELATED_RING = scan('pumpfun', {
  flags: [...SNIPED],
  notFlags: [
    'CREATOR_SERIAL_LAUNCHER',
    'CREATOR_HISTORY_UNAVAILABLE',
    'NOT_PUMPFUN_MINT',
    'CREATOR_HOLDS_SUPPLY',
  ],
});
const RELATED_LAUNCHES = Object.fromEntries([
  ...Array.from({ length: SERIAL_COINS }, (_, i) => [
    serialName(i),
    i < SERIAL_DEAD ? RELATED_SERIAL_DEAD : RELATED_SERIAL_SNIPED,
  ]),
  ...Array.from({ length: RING_COINS }, (_, i) => [ringName(i), RELATED_RING]),
]);

export const SCENARIOS: readonly ScenarioEntry[] = [
  {
    at: 'start',
    name: 'mainnet account dumps',
    expect: MAINNET_FLAG_EXPECTATIONS,
    needsDumps: true,
    build: async ({ context, mainnetDumps }) =>
      mainnetDumps === null ? [] : seedMainnetDumps(context, mainnetDumps),
  },
  {
    at: { after: 'mainnet account dumps' },
    name: 'stand-in programs',
    expect: {
      'program:stand-in:pump': STAND_IN,
      'program:stand-in:pumpswap': STAND_IN,
      'program:stand-in:squads-v4': STAND_IN,
    },
    build: ({ context }) => seedStandInPrograms(context),
  },
  {
    at: { after: 'stand-in programs' },
    name: 'governed programs',
    expect: {
      'program:governed:squads-v3': scan('program', {
        flags: ['UPGRADE_AUTHORITY_MULTISIG'],
        notFlags: ['UPGRADE_AUTHORITY_UNKNOWN_PDA', 'UPGRADE_AUTHORITY_SINGLE_KEY', 'PROGRAM_IMMUTABLE'],
      }),
      'program:governed:realms': scan('program', {
        flags: ['UPGRADE_AUTHORITY_GOVERNANCE'],
        notFlags: [
          'UPGRADE_AUTHORITY_UNKNOWN_PDA',
          'UPGRADE_AUTHORITY_SINGLE_KEY',
          'UPGRADE_AUTHORITY_MULTISIG',
        ],
      }),
    },
    needsDumps: true,
    build: ({ context }) => seedGovernedPrograms(context),
  },
  {
    at: { after: 'governed programs' },
    name: 'SOL/USD price',
    expect: {},
    build: ({ context }) => seedSolUsdPrice(context),
  },
  {
    at: { after: 'SOL/USD price' },
    name: 'USDC',
    expect: {},
    build: async (seeding) => {
      seeding.usdc = await seedUsdc(seeding.context);
    },
  },
  {
    at: days(-45),
    name: 'old wallet, 45 → 21 days before the end',
    expect: {},
    build: async (seeding) => {
      seeding.oldWallet = await seedOldWalletHistory(seeding.context);
    },
  },
  {
    at: days(-20.5),
    name: 'established SPL tokens',
    expect: {
      // No pool was seeded for it: the one flag is the missing market.
      'token:clean': scan('token', { flags: ['MARKET_NONE'], notFlags: [], onlyFlags: true }),
      'token:authorities-live': scan('token', {
        flags: [...AUTHORITIES, 'METADATA_MUTABLE'],
        notFlags: ['TRUSTED_ISSUER', 'NOT_A_MINT'],
      }),
      'token:concentrated': scan('token', {
        flags: ['HOLDER_TOP1_HIGH'],
        notFlags: [...AUTHORITIES, 'METADATA_MUTABLE'],
      }),
    },
    build: ({ context }) => seedSplTokens(context),
  },
  {
    at: { after: 'established SPL tokens' },
    name: 'their governed twins',
    expect: {
      'token:governed:single-key': GOVERNED_TOKEN,
      'token:governed:coral': GOVERNED_TOKEN,
      'token:governed:realms': GOVERNED_TOKEN,
      'token:governed:forged': GOVERNED_TOKEN,
    },
    needsDumps: true,
    build: ({ context }) => seedGovernedTokens(context),
  },
  {
    at: { after: 'their governed twins' },
    name: 'tokens with pools, and one without',
    expect: {
      'token:pool-lp-burned': LP_SAFE,
      'token:pool-lp-creator': LP_PULLABLE,
      'token:pool-lp-jup-locked': LP_SAFE,
      'token:pool-amm-v4-lp-creator': LP_PULLABLE,
      'token:pool-amm-v4-pc-side': LP_PULLABLE,
      // Its $1,000 buy runs past the one position (exceeds_read_liquidity), already 30 % up when it does.
      'token:pool-thin': scan('token', {
        flags: ['LIQUIDITY_THIN', 'TRADE_PRICE_IMPACT_HIGH'],
        notFlags: ['MARKET_NONE', 'LP_PULLABLE', 'LIQUIDITY_UNAVAILABLE'],
      }),
      // Deep next to its market value, but a $1,000 trade (6.7 SOL) is twice the pool's 3 SOL.
      'token:trade-thin': scan('token', {
        flags: ['TRADE_PRICE_IMPACT_HIGH', 'TRADE_ROUND_TRIP_LOSS_HIGH', 'LP_BURNED_OR_LOCKED'],
        notFlags: ['LIQUIDITY_THIN', 'MARKET_NONE', 'LP_PULLABLE', 'LIQUIDITY_UNAVAILABLE'],
      }),
      'token:no-market': scan('token', {
        flags: ['MARKET_NONE'],
        notFlags: ['LIQUIDITY_THIN', 'LP_PULLABLE', 'LIQUIDITY_UNAVAILABLE'],
      }),
      // Its in-range liquidity is 10 SOL deep: a $1,000 buy runs past the positions read, 25 % up.
      'token:pool-owned': scan('token', {
        flags: ['LIQUIDITY_OWNER_CONCENTRATED', 'TRADE_PRICE_IMPACT_HIGH'],
        notFlags: [...NO_POOL_TROUBLE, 'LIQUIDITY_OWNERS_UNAVAILABLE'],
      }),
      'token:pool-meteora-damm-v2': scan('token', {
        flags: [],
        notFlags: [...NO_POOL_TROUBLE, 'LP_PULLABLE', 'HOLDER_TOP1_HIGH'],
      }),
      // 50 SOL deep: $1,000 (6.7 SOL) moves it 12 %, and a round trip loses 21 %.
      'token:pool-meteora-damm-v1': scan('token', {
        flags: ['LP_PULLABLE', 'TRADE_PRICE_IMPACT_HIGH', 'TRADE_ROUND_TRIP_LOSS_HIGH'],
        notFlags: [...NO_POOL_TROUBLE, 'LP_BURNED_OR_LOCKED', 'HOLDER_TOP1_HIGH'],
      }),
      'token:pool-meteora-damm-v1-locked': scan('token', {
        flags: ['LP_BURNED_OR_LOCKED', 'TRADE_PRICE_IMPACT_HIGH', 'TRADE_ROUND_TRIP_LOSS_HIGH'],
        notFlags: [...NO_POOL_TROUBLE, 'LP_PULLABLE', 'HOLDER_TOP1_HIGH'],
      }),
    },
    build: ({ context }) => seedLiquidityScenarios(context),
  },
  {
    at: days(-20),
    name: 'programs, deployed and upgraded 20 → 3 days before the end',
    expect: {},
    build: async (seeding) => {
      seeding.programs = await seedPrograms(seeding.context);
    },
  },
  // A day old, so a fee scheduled 2 epochs ahead is still in the future at the end.
  {
    at: days(-1),
    name: 'Token-2022 mints',
    expect: {
      'token:t22-permanent-delegate': scan('token', {
        flags: ['PERMANENT_DELEGATE'],
        notFlags: ['TRANSFER_FEE', 'NON_TRANSFERABLE', ...AUTHORITIES],
      }),
      'token:t22-transfer-fee': scan('token', {
        flags: ['TRANSFER_FEE', 'TRANSFER_FEE_AUTHORITY'],
        notFlags: ['TRANSFER_FEE_INCREASE_SCHEDULED', 'PERMANENT_DELEGATE'],
      }),
      'token:t22-transfer-fee-increase': scan('token', {
        flags: ['TRANSFER_FEE', 'TRANSFER_FEE_INCREASE_SCHEDULED', 'TRANSFER_FEE_AUTHORITY'],
        notFlags: ['PERMANENT_DELEGATE'],
      }),
      // Its hook (a memo program) has no validation account, so Token-2022 refuses every transfer
      // (InvalidAccountData); its holders' wallets hold no SOL, which the simulation does not need.
      'token:t22-transfer-hook': scan('token', {
        flags: ['TRANSFER_HOOK_ACTIVE', 'TRANSFER_HOOK_AUTHORITY', 'TRANSFER_BLOCKED'],
        notFlags: ['TRANSFER_FEE', 'TRANSFER_SIMULATION_UNAVAILABLE'],
      }),
      'token:t22-default-frozen': scan('token', {
        flags: ['DEFAULT_STATE_FROZEN', 'FREEZE_AUTHORITY_ACTIVE'],
        notFlags: ['MINT_AUTHORITY_ACTIVE'],
      }),
      'token:t22-non-transferable': scan('token', {
        flags: ['NON_TRANSFERABLE'],
        notFlags: ['PERMANENT_DELEGATE'],
      }),
      // Paused outranks pausable: the scan names the stronger fact only.
      'token:t22-pausable': scan('token', { flags: ['TOKEN_PAUSED'], notFlags: ['PAUSABLE'] }),
    },
    build: ({ context }) => seedToken2022Mints(context),
  },
  {
    at: { after: 'Token-2022 mints' },
    name: 'transfer-hook mints',
    expect: {
      'token:t22-hook-refuses': REFUSING_HOOK,
      'token:t22-hook-refuses-unfunded': REFUSING_HOOK,
      'token:t22-hook-allows': scan('token', {
        flags: ['TRANSFER_HOOK_ACTIVE'],
        notFlags: ['TRANSFER_BLOCKED', 'TRANSFER_SIMULATION_UNAVAILABLE', 'TRANSFER_UNDECLARED_CUT'],
      }),
    },
    build: ({ context }) => seedTransferHookMints(context),
  },
  {
    at: { after: 'transfer-hook mints' },
    name: 'copycat tickers',
    expect: {
      'token:copycat-usdc': COPY,
      'token:copycat-lookalike': COPY,
      'token:copycat-decorated': COPY,
      'token:copycat-jup': COPY,
      'token:usdc': scan('token', {
        flags: ['TRUSTED_ISSUER'],
        notFlags: ['IMPERSONATES_VERIFIED_TOKEN', 'METADATA_MISSING'],
      }),
      'token:verified-variant': scan('token', {
        flags: [],
        notFlags: ['IMPERSONATES_VERIFIED_TOKEN', 'METADATA_MISSING'],
      }),
    },
    build: ({ context }) => seedCopycats(context),
  },
  {
    at: hours(-16),
    name: 'related launches, 16 → 13.7 hours',
    expect: RELATED_LAUNCHES,
    build: ({ context }) => seedRelatedLaunches(context),
  },
  {
    at: hours(-12),
    name: 'pump.fun curves and pools, 12 → 6 hours',
    expect: {
      // Launched hours ago: new (caution), and nothing else wrong with it.
      'pumpfun:graduated': scan('pumpfun', { flags: ['TOKEN_NEW'], notFlags: [], onlyFlags: true }),
      // The curve is its market: no MARKET_NONE, at /scan/pumpfun or /scan/token; a $1,000 trade on
      // it moves the price over 10 % and loses over 20 % on the round trip.
      'pumpfun:curve-active': scan('pumpfun', {
        flags: ['TOKEN_NEW', 'TRADE_ROUND_TRIP_LOSS_HIGH', 'TRADE_PRICE_IMPACT_HIGH'],
        notFlags: ['MARKET_NONE'],
        onlyFlags: true,
      }),
      'pumpfun:serial-latest': scan('pumpfun', DEAD_SERIAL_LAUNCH),
      // The kept dev buy (0.2 % of the supply) is what finds the launches, not a holding to flag.
      'pumpfun:dumper-latest': scan('pumpfun', {
        flags: DEAD_SERIAL_LAUNCH.flags,
        notFlags: [...DEAD_SERIAL_LAUNCH.notFlags, 'CREATOR_HOLDS_SUPPLY', 'CREATOR_HISTORY_UNAVAILABLE'],
      }),
      // /scan/wallet has no launch check (the coins' own scans name the serial launcher): it sees a
      // wallet whose history began half a day ago.
      'wallet:pump-serial-creator': scan('wallet', {
        flags: ['FRESH_WALLET'],
        notFlags: ['NOT_A_WALLET', 'WALLET_UNUSED', 'FUNDED_THEN_DRAINED', 'HIGH_FAILURE_RATE'],
      }),
    },
    build: ({ context }) => seedPumpfun(context),
  },
  {
    at: hours(-5.5),
    name: 'latest program upgrade, and the program subjects',
    expect: {
      'program:immutable': scan('program', {
        flags: ['PROGRAM_IMMUTABLE'],
        notFlags: ['UPGRADE_AUTHORITY_SINGLE_KEY'],
      }),
      'program:single-key': scan('program', {
        flags: ['UPGRADE_AUTHORITY_SINGLE_KEY', 'RECENTLY_UPGRADED'],
        notFlags: ['PROGRAM_IMMUTABLE'],
      }),
      // Autonomous: no config authority can change the members behind the vote.
      'program:multisig': scan('program', {
        flags: ['UPGRADE_AUTHORITY_MULTISIG', 'AUTHORITY_CHANGED_RECENTLY'],
        notFlags: ['UPGRADE_AUTHORITY_SINGLE_KEY', 'MULTISIG_CONFIG_AUTHORITY_SET'],
      }),
    },
    build: ({ context, programs }) => seedLatestUpgrade(context, handedOn(programs, 'the programs')),
  },
  {
    at: hours(-5),
    name: 'high-failure wallet, 5 → 3 hours',
    expect: {
      'wallet:high-failure': scan('wallet', {
        flags: ['HIGH_FAILURE_RATE'],
        notFlags: ['FUNDED_THEN_DRAINED'],
      }),
    },
    build: async ({ context }) => [await seedHighFailureWallet(context)],
  },
  {
    at: hours(-2.9),
    name: 'launches, 2.9 → 2.3 hours',
    expect: {
      'pumpfun:launch-bundled': scan('pumpfun', {
        flags: ['TOKEN_NEW', ...LAUNCH_FLAGS],
        notFlags: ['NOT_PUMPFUN_MINT', 'MINT_AUTHORITY_ACTIVE', 'CURVE_EARLY'],
      }),
      'pumpfun:launch-fair': scan('pumpfun', {
        flags: ['TOKEN_NEW'],
        notFlags: [...LAUNCH_FLAGS, 'HOLDER_TOP10_HIGH', 'HOLDER_TOP1_HIGH', 'CURVE_EARLY'],
      }),
    },
    build: ({ context }) => seedLaunches(context),
  },
  {
    at: hours(-2.24),
    name: 'creator history, 2.24 → 2.1 hours',
    expect: {
      'pumpfun:serial-closed': scan('pumpfun', {
        flags: ['CREATOR_SERIAL_LAUNCHER', 'CURVE_EARLY'],
        notFlags: ['NOT_PUMPFUN_MINT', 'MINT_AUTHORITY_ACTIVE', 'CREATOR_HOLDS_SUPPLY'],
      }),
      'pumpfun:dev-dump': scan('pumpfun', {
        flags: ['CREATOR_DEV_DUMP'],
        notFlags: ['CREATOR_SERIAL_LAUNCHER', 'CREATOR_HISTORY_UNAVAILABLE', 'CREATOR_HOLDS_SUPPLY'],
      }),
    },
    build: ({ context }) => seedCreatorHistory(context),
  },
  {
    at: hours(-2),
    name: 'old wallet, recent payments 2 → 1 hour',
    expect: { 'wallet:old-active': scan('wallet', { flags: [], notFlags: [], onlyFlags: true }) },
    build: async ({ context, oldWallet }) => [
      await seedOldWalletRecent(context, handedOn(oldWallet, 'the old wallet')),
    ],
  },
  { at: hours(-0.98), name: 'insiders funded', expect: {}, build: ({ context }) => fundInsiders(context) },
  {
    at: hours(-0.33),
    name: 'insider launches',
    expect: {
      'pumpfun:insiders-creator-funded': scan('pumpfun', {
        flags: ['INSIDER_CLUSTER', 'LAUNCH_SNIPERS_HOLD'],
        notFlags: NOT_LAUNCH,
      }),
      'pumpfun:insiders-via-intermediate': scan('pumpfun', {
        flags: ['INSIDER_CLUSTER'],
        notFlags: [...NOT_LAUNCH, 'LAUNCH_SNIPERS_HOLD'],
      }),
      'pumpfun:insiders-exchange-funded': scan('pumpfun', {
        flags: ['TOKEN_NEW'],
        notFlags: [...NOT_LAUNCH, 'INSIDER_CLUSTER', 'LAUNCH_SNIPERS_HOLD'],
      }),
      'token:insiders-creator-funded': scan('token', {
        flags: ['INSIDER_CLUSTER'],
        notFlags: ['LAUNCH_INSIDERS', 'MINT_AUTHORITY_ACTIVE', 'HOLDER_TOP10_HIGH'],
      }),
    },
    build: ({ context }) => seedInsiderLaunches(context),
  },
  {
    at: minutes(-10),
    name: 'burner wallet',
    expect: {
      'wallet:burner': scan('wallet', {
        flags: ['FUNDED_THEN_DRAINED', 'QUICK_FIRST_ACTION', 'FRESH_WALLET', 'FEW_TRANSACTIONS'],
        notFlags: ['HIGH_FAILURE_RATE'],
      }),
    },
    build: async ({ context }) => [await seedBurnerWallet(context)],
  },
  {
    at: minutes(-5),
    name: 'transactions',
    expect: {
      'tx:success': scan('tx', { flags: [], notFlags: [], onlyFlags: true }),
      'tx:failed-custom-error': scan('tx', { flags: ['TX_FAILED'], notFlags: ['TX_NOT_FOUND'] }),
      'tx:high-priority-fee': scan('tx', { flags: ['TX_HIGH_FEE'], notFlags: ['TX_FAILED'] }),
      'tx:large-outflow': scan('tx', {
        flags: ['TX_SIGNER_LARGE_SOL_OUTFLOW'],
        notFlags: ['TX_TOKEN_APPROVE_THIRD_PARTY'],
      }),
      'tx:drainer': scan('tx', {
        flags: ['TX_TOKEN_APPROVE_THIRD_PARTY', 'TX_TOKEN_ACCOUNT_OWNER_CHANGED'],
        notFlags: ['TX_FAILED'],
      }),
    },
    build: ({ context }) => seedTransactions(context),
  },
  // Accounts for transactions to simulate, never sent.
  {
    at: { after: 'transactions' },
    name: 'simulations',
    expect: {},
    build: ({ context }) => seedSimulations(context),
  },
  // Last, so no earlier subject's signatures move: a dev buy its creator can still dump.
  {
    at: minutes(-4),
    name: 'dev holding',
    expect: {
      'pumpfun:dev-holding': scan('pumpfun', {
        flags: ['TOKEN_NEW', 'CREATOR_HOLDS_SUPPLY'],
        notFlags: ['CREATOR_DEV_DUMP', 'CREATOR_SERIAL_LAUNCHER'],
      }),
    },
    build: async ({ context }) => [await seedDevHolding(context)],
  },
  // At the end: the actions (transactions a test can send) of the subjects seeded above.
  { at: 0, name: 'actions', expect: {}, build: ({ context }) => attachActions(context) },
];
