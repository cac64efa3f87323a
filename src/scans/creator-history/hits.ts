/**
 * Pure: a pump.fun coin's creator history → the serial-launcher and dev-dump hits and the
 * `creator_launches` evidence, the same on /scan/pumpfun and on /scan/token (a pump.fun mint).
 * The launches' states and the creator's trades are read from the rows of history-assess.ts;
 * docs/risk-model.md states the thresholds.
 */
import type { FlagHit } from '../risk/model.js';
import { short } from '../risk/numbers.js';
import type { CreatorHistoryFlag } from './flags.js';
import { historyCompleteness, type LaunchRow, launchRows, sourcesOf } from './history-assess.js';
import { keptOutcomeSummary } from './launch-curves.js';
import { type CreatorLaunches, LAUNCHES_FOUND_VIA } from './launches.js';
import {
  DUMP_HABIT,
  DUMP_WINDOW_S,
  SERIAL_DEAD_SHARE,
  SERIAL_MIN_LAUNCHES,
  SERIAL_YOUNG_DEATHS,
} from './thresholds.js';

type Hit = FlagHit<CreatorHistoryFlag>;

/** Launches listed in the evidence, at most. */
const LISTED_LAUNCHES = 50;
const MISSED =
  'the creator token accounts find only coins it still has a token account of (a closed one is not found); its transactions (newest first, bounded per scan) find coins it signed the creation of; getProgramAccounts, where the RPC serves it, finds every curve naming it. Launches made by another wallet for it (free creation) or from another wallet are missed unless getProgramAccounts ran';

/** The creator's launches as the result shows them; null when they could not be read. */
export type CreatorHistory = (History & Record<string, unknown>) | null;

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
  // Launches whose final outcome an earlier scan kept: not read again, read at these slots.
  const kept = launches.curves === null ? null : keptOutcomeSummary(launches.curves);
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
    ...(kept ? { from_kept_facts: kept } : {}),
  };
}

/**
 * The creator history's hits and evidence for a coin whose curve names `creator`; launches null
 * (not read) or without curves raises CREATOR_HISTORY_UNAVAILABLE.
 */
export function creatorHistoryHits(
  launches: CreatorLaunches | null,
  creator: string,
  mint: string,
): { hits: Hit[]; history: CreatorHistory } {
  if (launches === null || launches.curves === null) {
    const hit: Hit = {
      code: 'CREATOR_HISTORY_UNAVAILABLE',
      strength: 1,
      evidence: { reason: launches?.error ?? 'no creator recorded' },
      reason: "the creator's other launches could not be read",
    };
    return { hits: [hit], history: null };
  }
  const rows = launchRows(launches.curves, launches.history);
  const hits = historyHits(creator, mint, rows);
  const serial = hits.some((h) => h.code === 'CREATOR_SERIAL_LAUNCHER');
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

/** The reasoning line of a history that was read. */
export const creatorHistoryNote = (creator: string, history: History) =>
  `creator ${short(creator)}: ${history.launches} launch(es), ${history.graduated} graduated, ${history.dead} dead`;
