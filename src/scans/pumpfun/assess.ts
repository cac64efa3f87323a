/** Pure: pump.fun facts → ScanResult; the token checks run on the same mint. */
import type { ScanResult } from '../../contract/schemas.js';
import type { DecodedMint } from '../../solana/decoders/mint.js';
import {
  type BondingCurve,
  curveProgress,
  decodeBondingCurve,
} from '../../solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM } from '../../solana/programs.js';
import { type CreatorHistory, creatorHistoryHits, creatorHistoryNote } from '../creator-history/hits.js';
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
import { bundledRegistry } from '../verified/bundled.js';
import type { VerifiedRegistry } from '../verified/model.js';
import type { PumpfunFacts } from './facts.js';
import { PUMPFUN_FLAGS, type PumpfunFlag } from './flags.js';
import {
  CREATOR_HOLDING_SHARE,
  CURVE_EARLY_PROGRESS,
  STANDARD_DECIMALS,
  STANDARD_SUPPLY,
} from './thresholds.js';

type Hit = FlagHit<PumpfunFlag>;
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

/** The creator's own holding of the coin, from the decoded holders. */
function creatorHolding(token: TokenView, creator: string, supply: bigint): Hit[] {
  if (token.largest === null || supply <= 0n) return [];
  const held = token.decoded.holders.filter((h) => h.owner === creator).reduce((s, h) => s + h.amount, 0n);
  const share = Number((held * 1_000_000n) / supply) / 1_000_000;
  const { warn, full } = CREATOR_HOLDING_SHARE;
  if (share < warn) return [];
  return [
    {
      code: 'CREATOR_HOLDS_SUPPLY',
      strength: Math.min(1, (share - warn) / (full - warn) + 0.01),
      evidence: { creator, share },
      reason: `the creator holds ${pct(share)} of the supply`,
    },
  ];
}

function creatorHits(
  facts: PumpfunFacts,
  token: TokenView,
  curve: BondingCurve,
  supply: bigint,
): { hits: Hit[]; history: CreatorHistory } {
  const creator = curve.creator;
  if (creator === null) return { hits: [], history: null };
  const history = creatorHistoryHits(facts.launches, creator, facts.token.mint);
  return { hits: [...creatorHolding(token, creator, supply), ...history.hits], history: history.history };
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
  if (!curve.complete && progress < CURVE_EARLY_PROGRESS) {
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
    ...(history ? [creatorHistoryNote(curve.creator ?? '', history)] : []),
  ];
  return { summary, notes };
}

/** `verified`: the copy of the verified-token registry the scan was given (the bundled one by default). */
export function assessPumpfun(
  facts: PumpfunFacts,
  verified: VerifiedRegistry = bundledRegistry(),
): ScanResult {
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
  const checks = tokenChecks(token, mint, named, liquidity, verified);
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
