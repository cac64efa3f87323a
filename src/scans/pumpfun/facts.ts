/**
 * /scan/pumpfun facts: the token's read schedule (../token/schedule.ts), with pump.fun's own reads
 * added through its one extension point (`pumpfunReads`): the bonding curve and the canonical
 * PumpSwap pool (both PDAs derived locally) read with the mint, and from round 2 on the creator's
 * history (../creator-history/launches.ts), which /scan/token runs the same way on a pump.fun mint.
 */
import type { Address } from '@solana/kit';
import { findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import { findCanonicalPumpPoolAddress } from '../../solana/decoders/pumpswap-pool.js';
import type { RpcServes } from '../../solana/program-search.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { type CreatorLaunches, creatorLaunchesRound2, curveCreator } from '../creator-history/launches.js';
import type { FactStore } from '../fact-store.js';
import type { LiquidityFacts } from '../liquidity/facts.js';
import { readToken, type ScanExtension } from '../token/schedule.js';
import type { RawAccount, TokenFacts } from '../token-facts/model.js';

export interface PumpfunFacts {
  readonly token: TokenFacts;
  readonly curveAddress: Address;
  readonly curve: RawAccount | null;
  readonly poolAddress: Address;
  readonly pool: RawAccount | null;
  readonly launches: CreatorLaunches | null;
  /** The coin's pools (third round, beside the launches' curves); absent when not read. */
  readonly liquidity?: LiquidityFacts;
}

/**
 * pump.fun's reads in the token's schedule (../token/schedule.ts): the curve and the canonical
 * PumpSwap pool read with the mint; from round 2 on, the creator's history.
 */
function pumpfunReads(
  rpc: SolanaRpc,
  mint: Address,
  withMint: readonly [curve: Address, pool: Address],
  serves: RpcServes | undefined,
  abortSignal?: AbortSignal,
  facts?: FactStore,
): ScanExtension<CreatorLaunches | null> {
  return {
    withMint,
    launchCreator: ([curve]) => curveCreator(curve),
    round2: (first) =>
      creatorLaunchesRound2(rpc, mint, first.withMint[0] ?? null, async () => serves, abortSignal, facts),
  };
}

export async function gatherPumpfunFacts(
  rpc: SolanaRpc,
  mint: Address,
  now: () => number,
  abortSignal?: AbortSignal,
  serves?: RpcServes,
  facts?: FactStore,
): Promise<PumpfunFacts> {
  const [curveAddress, poolAddress] = await Promise.all([
    findBondingCurveAddress(mint),
    findCanonicalPumpPoolAddress(mint),
  ]);
  const reads = pumpfunReads(rpc, mint, [curveAddress, poolAddress], serves, abortSignal, facts);
  const { view, liquidity, found } = await readToken(rpc, mint, now, abortSignal, reads, facts);
  return {
    token: view,
    curveAddress,
    curve: view.extraAccounts[0] ?? null,
    poolAddress,
    pool: view.extraAccounts[1] ?? null,
    launches: found ?? null,
    liquidity,
  };
}
