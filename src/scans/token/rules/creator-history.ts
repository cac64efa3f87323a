/**
 * The creator history of a pump.fun mint on /scan/token: the same hits and `creator_launches`
 * evidence as /scan/pumpfun (../../creator-history/hits.ts). A mint with no pump curve says so in
 * `creator_launches` and raises nothing.
 */
import { decodeBondingCurve } from '../../../solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM } from '../../../solana/programs.js';
import { creatorHistoryHits, creatorHistoryNote } from '../../creator-history/hits.js';
import type { CreatorLaunches } from '../../creator-history/launches.js';
import type { FlagHit } from '../../risk/model.js';
import type { RawAccount } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';

/** What the scan read of the mint's pump.fun side: its curve (read with the mint) and the launches. */
export interface PumpfunCreatorRead {
  readonly curveAddress: string;
  readonly curve: RawAccount | null;
  readonly launches: CreatorLaunches | null;
}

export function creatorHistoryOf(mint: string, read: PumpfunCreatorRead) {
  const decoded = read.curve?.owner === PUMP_PROGRAM ? decodeBondingCurve(read.curve.data) : null;
  if (decoded === null || !decoded.ok) {
    const reason = `not a pump.fun mint: no pump.fun bonding curve at ${read.curveAddress}, so no creator history applies`;
    return {
      hits: [] as FlagHit<TokenFlag>[],
      facts: { creator_launches: { checked: false, reason } },
      notes: [] as string[],
    };
  }
  const creator = decoded.value.creator;
  if (creator === null) return { hits: [], facts: { creator: null, creator_launches: null }, notes: [] };
  const { hits, history } = creatorHistoryHits(read.launches, creator, mint);
  return {
    hits,
    facts: { creator, creator_launches: history },
    notes: history ? [creatorHistoryNote(creator, history)] : [],
  };
}
