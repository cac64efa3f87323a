/**
 * /scan/token's one extension of the token's schedule (schedule.ts): the mint's pump.fun bonding
 * curve, a PDA of the mint, read in round 1 with the mint (no call of its own). When it is a pump
 * curve, the creator's history runs from round 2 on exactly as /scan/pumpfun runs it
 * (../creator-history/launches.ts); otherwise nothing more is read.
 */
import type { Address } from '@solana/kit';
import { findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import {
  type AskServes,
  type CreatorLaunches,
  creatorLaunchesRound2,
  curveCreator,
} from '../creator-history/launches.js';
import type { FactStore } from '../fact-store.js';
import type { ScanExtension } from './schedule.js';

export async function pumpfunCreatorReads(
  rpc: SolanaRpc,
  mint: Address,
  serves: AskServes,
  signal?: AbortSignal,
  facts?: FactStore,
): Promise<{ curveAddress: Address; extension: ScanExtension<CreatorLaunches | null> }> {
  const curveAddress = await findBondingCurveAddress(mint);
  return {
    curveAddress,
    extension: {
      withMint: [curveAddress],
      // The curve names the creator, as /scan/pumpfun has it: not the creation's fee payer.
      launchCreator: ([curve]) => curveCreator(curve),
      round2: (first) => creatorLaunchesRound2(rpc, mint, first.withMint[0] ?? null, serves, signal, facts),
    },
  };
}
