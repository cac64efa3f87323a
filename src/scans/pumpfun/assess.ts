/** Pure: pump.fun facts → ScanResult; the token checks run on the same mint. */
import type { ScanResult } from '../../contract/schemas.js';
import type { DecodedMint } from '../../solana/decoders/mint.js';
import {
  type BondingCurve,
  curveProgress,
  decodeBondingCurve,
} from '../../solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM } from '../../solana/programs.js';
import type { FlagHit } from '../risk/model.js';
import { pct, short } from '../risk/numbers.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import {
  notAMintResult,
  readMint,
  TOKEN_ADVICE,
  type TokenCheckOutcome,
  tokenChecks,
} from '../token/assess.js';
import type { TokenView } from '../token-facts/model.js';
import { viewOf } from '../token-facts/view.js';
import { type CreatorLaunches, LAUNCHES_FOUND_VIA, type PumpfunFacts } from './facts.js';
import { PUMPFUN_FLAGS, type PumpfunFlag } from './flags.js';
import {
  DUMP_WINDOW_S,
  historyCompleteness,
  type LaunchRow,
  launchRows,
  sourcesOf,
} from './history-assess.js';

type Hit = FlagHit<PumpfunFlag>;
const STANDARD_SUPPLY = 1_000_000_000_000_000n;
const STANDARD_DECIMALS = 6;
/** CREATOR_SERIAL_LAUNCHER: at least this many launches (this one included)… */
export const SERIAL_MIN_LAUNCHES = 5;
/** …with this share or more dead on their curve; or this many earlier coins that died young. */
export const SERIAL_DEAD_SHARE = 0.6;
export const SERIAL_YOUNG_DEATHS = 3;
/** CREATOR_DEV_DUMP on this coin, or on this many earlier coins (a habit). */
export const DUMP_HABIT = 2;

const ADVICE = {
  ...TOKEN_ADVICE,
  avoid:
    'High-risk launch: the creator or a few wallets can dump on buyers, or the creator has a record of dead launches. Avoid unless you accept losing the position.',
  do_not_interact: 'Do not buy this coin: the flagged risks are severe enough to cost buyers the position.',
} as const;

/** A real mint with no pump.fun curve: its token checks still apply, the pump.fun story does not. */
const NOT_PUMPFUN_ADVICE = sameAdvice(
  'This token was not launched on pump.fun: treat any claim that it is a pump.fun coin as false, and judge it by its other flags (or scan it with /scan/token).',
);

/** Launches listed in the evidence, at most. */
const LISTED_LAUNCHES = 50;
const MISSED =
  'the creator token accounts find only coins it still has a token account of (a closed one is not found); its transactions (newest first, bounded per scan) find coins it signed the creation of; getProgramAccounts, where the RPC serves it, finds every curve naming it. Launches made by another wallet for it (free creation) or from another wallet are missed unless getProgramAccounts ran';

/** The creator's launches as the result shows them; null when they could not be read. */
type CreatorHistory = (History & Record<string, unknown>) | null;

interface History {
  readonly launches: number;
  readonly graduated: number;
  readonly dead: number;
}

/** Why a history that was read is still partial, or null when nothing says so. */
function partial(launches: CreatorLaunches, mint: string): string | null {
  const { complete, cut } = historyCompleteness(launches.history, mint);
  if (complete) return null;
  const coverage = launches.coverage;
  const why = cut === null ? '' : `; ${cut}`;
  if (coverage === undefined) {
    return launches.error === null
      ? null
      : `incomplete: the creator's token accounts: ${launches.error}${why}`;
  }
  if (!coverage.holdsThisCoin) {
    return `incomplete: the creator has no token account of this coin (closed, or no dev buy), so its other launches cannot be told apart from none${why}`;
  }
  if (coverage.truncated) {
    return `incomplete: the creator has token accounts of ${coverage.mints} other mints; only ${coverage.mintsRead} were checked for launches`;
  }
  // Its token accounts miss the coins whose account it closed: only a history read to its start rules them out.
  return cut === null ? null : `incomplete: coins whose token account the creator closed may be missed${why}`;
}

/** The creator's own holding of the coin, from the decoded holders. */
function creatorHolding(token: TokenView, creator: string, supply: bigint): Hit[] {
  if (token.largest === null || supply <= 0n) return [];
  const held = token.decoded.holders.filter((h) => h.owner === creator).reduce((s, h) => s + h.amount, 0n);
  const share = Number((held * 1_000_000n) / supply) / 1_000_000;
  if (share < 0.05) return [];
  return [
    {
      code: 'CREATOR_HOLDS_SUPPLY',
      strength: Math.min(1, (share - 0.05) / 0.15 + 0.01),
      evidence: { creator, share },
      reason: `the creator holds ${pct(share)} of the supply`,
    },
  ];
}

/** The serial-launcher and dev-dump rules on the launches found. */
function historyHits(creator: string, mint: string, rows: readonly LaunchRow[]): Hit[] {
  const hits: Hit[] = [];
  const history = {
    launches: rows.length,
    graduated: rows.filter((r) => r.state === 'graduated').length,
    dead: rows.filter((r) => r.state === 'dead').length,
  };
  const earlier = rows.filter((r) => r.mint !== mint);
  const diedYoung = earlier.filter((r) => r.died_young).length;
  const manyDead =
    history.launches >= SERIAL_MIN_LAUNCHES && history.dead / history.launches >= SERIAL_DEAD_SHARE;
  if (manyDead || diedYoung >= SERIAL_YOUNG_DEATHS) {
    hits.push({
      code: 'CREATOR_SERIAL_LAUNCHER',
      strength: Math.min(1, Math.max(history.launches / 10, diedYoung / 5)),
      evidence: { creator, ...history, ...(diedYoung > 0 ? { died_young: diedYoung } : {}) },
      reason: `the creator launched ${history.launches} coins; ${history.dead} died on their curve (${diedYoung} of them within an hour, the creator already out) and ${history.graduated} graduated`,
    });
  }
  const own = rows.find((r) => r.mint === mint);
  const dumps = earlier.filter((r) => r.dev_dump);
  if (own?.dev_dump || dumps.length >= DUMP_HABIT) {
    const subject = own?.dev_dump ? own : dumps[0]!;
    hits.push({
      code: 'CREATOR_DEV_DUMP',
      strength: own?.dev_dump ? 1 : Math.min(1, dumps.length / 4),
      evidence: {
        creator,
        mint: subject.mint,
        dev_buy: subject.dev_buy,
        sold: subject.sold,
        seconds_after_creation: subject.dumped_within_s,
        earlier_dumps: dumps.length,
      },
      reason: own?.dev_dump
        ? `the creator sold ${subject.sold} of its ${subject.dev_buy}-token dev buy of this coin within ${subject.dumped_within_s} s of creating it`
        : `the creator dumped its dev buy of ${dumps.length} earlier coins within ${DUMP_WINDOW_S / 60} minutes of creating them`,
    });
  }
  return hits;
}

function creatorHits(
  facts: PumpfunFacts,
  token: TokenView,
  curve: BondingCurve,
  supply: bigint,
): { hits: Hit[]; history: CreatorHistory } {
  const creator = curve.creator;
  if (creator === null) return { hits: [], history: null };
  const hits: Hit[] = creatorHolding(token, creator, supply);
  const launches = facts.launches;
  if (launches === null || launches.curves === null) {
    hits.push({
      code: 'CREATOR_HISTORY_UNAVAILABLE',
      strength: 1,
      evidence: { reason: launches?.error ?? 'no creator recorded' },
      reason: "the creator's other launches could not be read",
    });
    return { hits, history: null };
  }
  const mint = facts.token.mint;
  const rows = launchRows(launches.curves, launches.history);
  const found = historyHits(creator, mint, rows);
  hits.push(...found);
  const serial = found.some((h) => h.code === 'CREATOR_SERIAL_LAUNCHER');
  const gap = partial(launches, mint);
  // A partial list that already shows a serial launcher is evidence enough; otherwise the risk is unknown.
  if (gap !== null && !serial) {
    hits.push({
      code: 'CREATOR_HISTORY_UNAVAILABLE',
      strength: 1,
      evidence: { reason: gap },
      reason: "the creator's other launches could be read only in part",
    });
  }
  return { hits, history: historyEvidence(launches, rows, gap) };
}

/** The launches as the result's facts show them. */
function historyEvidence(
  launches: CreatorLaunches,
  rows: readonly LaunchRow[],
  gap: string | null,
): CreatorHistory {
  const coverage = launches.coverage;
  const history = {
    launches: rows.length,
    graduated: rows.filter((r) => r.state === 'graduated').length,
    dead: rows.filter((r) => r.state === 'dead').length,
  };
  if (coverage === undefined && launches.history === undefined) return history;
  return {
    ...history,
    launches_found_via: LAUNCHES_FOUND_VIA,
    sources: sourcesOf(launches.history, launches.error),
    list_complete: gap === null,
    missed: MISSED,
    ...(coverage
      ? {
          holds_this_coin: coverage.holdsThisCoin,
          token_accounts: coverage.tokenAccounts,
          mints_checked: coverage.mintsRead,
          truncated: coverage.truncated,
        }
      : {}),
    list: rows.slice(0, LISTED_LAUNCHES),
  };
}

/** The pump.fun story of a coin on its curve: a supply not pump.fun's, a curve barely sold. */
function curveHits(mint: DecodedMint, curve: BondingCurve, progress: number): Hit[] {
  const hits: Hit[] = [];
  if (mint.supply !== STANDARD_SUPPLY || mint.decimals !== STANDARD_DECIMALS) {
    hits.push({
      code: 'PUMP_NONSTANDARD_SUPPLY',
      strength: 1,
      evidence: { supply: String(mint.supply), decimals: mint.decimals },
      reason: `supply ${mint.supply} at ${mint.decimals} decimals is not pump.fun's standard`,
    });
  }
  if (!curve.complete && progress < 0.1) {
    hits.push({
      code: 'CURVE_EARLY',
      strength: 1,
      evidence: { progress },
      reason: `only ${pct(progress)} of its bonding curve has sold`,
    });
  }
  return hits;
}

/** A real mint with no pump.fun curve: its token checks, and NOT_PUMPFUN_MINT. */
function notPumpfunResult(facts: PumpfunFacts, checks: TokenCheckOutcome): ScanResult {
  const hit: Hit = {
    code: 'NOT_PUMPFUN_MINT',
    strength: 1,
    evidence: { bonding_curve: facts.curveAddress, curve_owner: facts.curve?.owner ?? null },
    reason: 'it has no pump.fun bonding curve: it was not launched on pump.fun',
  };
  return buildResult(
    {
      subject: `Token ${short(facts.token.mint)}`,
      hits: [hit, ...checks.hits],
      facts: checks.facts,
      advice: NOT_PUMPFUN_ADVICE,
      notes: checks.notes,
    },
    PUMPFUN_FLAGS,
  );
}

/** The curve's facts and reasoning lines beside the token checks'. */
function curveFacts(facts: PumpfunFacts, curve: BondingCurve, history: CreatorHistory) {
  const progress = curveProgress(curve);
  const graduated = facts.pool !== null && facts.pool.owner === PUMPSWAP_PROGRAM;
  const summary = {
    bonding_curve: facts.curveAddress,
    curve_progress: Math.round(progress * 10_000) / 10_000,
    curve_complete: curve.complete,
    graduated,
    pool: graduated ? facts.poolAddress : null,
    creator: curve.creator,
    real_sol_reserves: String(curve.realQuoteReserves),
    virtual_sol_reserves: String(curve.virtualQuoteReserves),
    real_token_reserves: String(curve.realTokenReserves),
    creator_launches: history,
  };
  const notes = [
    `bonding curve ${curve.complete ? 'complete' : `${pct(progress)} sold`}${graduated ? '; trading on PumpSwap' : ''}`,
    ...(history
      ? [
          `creator ${short(curve.creator ?? '')}: ${history.launches} launch(es), ${history.graduated} graduated, ${history.dead} dead`,
        ]
      : []),
  ];
  return { summary, notes };
}

export function assessPumpfun(facts: PumpfunFacts): ScanResult {
  const token = viewOf(facts.token);
  const { mint, reason } = readMint(token);
  if (mint === null) return notAMintResult(token, reason, PUMPFUN_FLAGS);
  const named = new Map<string, string>([
    [facts.curveAddress, 'pump.fun bonding curve'],
    [facts.poolAddress, 'PumpSwap pool'],
  ]);
  const curveAccount = facts.curve;
  const decoded =
    curveAccount && curveAccount.owner === PUMP_PROGRAM ? decodeBondingCurve(curveAccount.data) : null;
  // While the curve trades the coin, no pool yet is expected.
  const onCurve = decoded?.ok === true && !decoded.value.complete;
  const liquidity = facts.liquidity
    ? { facts: facts.liquidity, options: { tradedElsewhere: onCurve } }
    : null;
  const checks = tokenChecks(token, mint, named, liquidity);
  if (decoded === null || !decoded.ok) return notPumpfunResult(facts, checks);
  const curve = decoded.value;
  const creator = creatorHits(facts, token, curve, mint.supply);
  const { summary, notes } = curveFacts(facts, curve, creator.history);
  return buildResult(
    {
      subject: `pump.fun coin ${short(token.mint)}${checks.name ? ` (${checks.name})` : ''}`,
      hits: [...checks.hits, ...curveHits(mint, curve, curveProgress(curve)), ...creator.hits],
      facts: { ...checks.facts, ...summary },
      advice: ADVICE,
      notes: [...notes, ...checks.notes],
    },
    PUMPFUN_FLAGS,
  );
}
