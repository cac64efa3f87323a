/**
 * token:pool-owned — an Orca Whirlpool under Orca's public config (so the scan locates it from its
 * vault's owner), 100 SOL against a tenth of the supply, whose in-range liquidity is 90 % one
 * wallet's position; a second wallet has 10 % in range and a larger position out of range (which
 * the in-range measure leaves out). Pool, vaults, positions and position NFTs are written in their
 * real layouts, owned by their real programs (the sandbox does not run Orca).
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { ORCA_WHIRLPOOLS_CONFIG } from '../../scans/liquidity/positions-locate.js';
import { cpmmMintOrder } from '../../solana/decoders/raydium-cpmm.js';
import { ORCA_WHIRLPOOL_PROGRAM, WSOL_MINT } from '../../solana/programs.js';
import { u16 } from './builders/bytes.js';
import { setTokenAccount } from './builders/pool-accounts.js';
import { encodeWhirlpool } from './builders/pool-layouts.js';
import { mergeTicks, positionTicks, seedWhirlpoolTickArrays } from './builders/tick-array-accounts.js';
import { seedWhirlpoolPosition } from './builders/whirlpool-positions.js';
import { LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { MarketExpect } from './manifest.js';

const TICK_SPACING = 64;
/** In-range liquidity of the two positions holding the current tick: 90 % and 10 %. */
const OWNED_LIQUIDITY = { owner: 9_000_000_000n, other: 1_000_000_000n } as const;

/** The pool seed (shape of liquidity.ts's PoolSeed) of a Whirlpool with one dominant position owner. */
export function ownedWhirlpool(poolTokens: bigint) {
  return async (context: ScenarioContext, mint: Address) => {
    const quote = 100n * LAMPORTS_PER_SOL;
    // Whirlpool seeds, like CPMM's, take the smaller mint by bytes first.
    const [mintA, mintB] = cpmmMintOrder(mint, WSOL_MINT);
    const baseIsA = mintA === mint;
    const encoder = getAddressEncoder();
    const [pool, bump] = await getProgramDerivedAddress({
      programAddress: ORCA_WHIRLPOOL_PROGRAM,
      seeds: [
        'whirlpool',
        encoder.encode(ORCA_WHIRLPOOLS_CONFIG),
        encoder.encode(mintA),
        encoder.encode(mintB),
        u16(TICK_SPACING),
      ],
    });
    const baseVault = (await context.keys.signer('token:pool-owned:vault-base')).address;
    const quoteVault = (await context.keys.signer('token:pool-owned:vault-quote')).address;
    // Price of A in B (raw units), and the tick that holds it.
    const price = baseIsA ? Number(quote) / Number(poolTokens) : Number(poolTokens) / Number(quote);
    const sqrtPriceX64 = BigInt(Math.round(Math.sqrt(price) * 2 ** 64));
    const tick = Math.floor(Math.log(price) / Math.log(1.0001));
    const data = encodeWhirlpool({
      config: ORCA_WHIRLPOOLS_CONFIG,
      bump,
      tickSpacing: TICK_SPACING,
      liquidity: OWNED_LIQUIDITY.owner + OWNED_LIQUIDITY.other,
      sqrtPriceX64,
      mintA,
      vaultA: baseIsA ? baseVault : quoteVault,
      mintB,
      vaultB: baseIsA ? quoteVault : baseVault,
      tickCurrent: tick,
    });
    context.chain.setAccount({
      address: pool,
      lamports: context.chain.minimumBalanceForRentExemption(data.length),
      data,
      owner: ORCA_WHIRLPOOL_PROGRAM,
    });
    setTokenAccount(context, baseVault, mint, pool, 0n);
    setTokenAccount(context, quoteVault, WSOL_MINT, pool, quote);
    const lower = Math.floor(tick / TICK_SPACING) * TICK_SPACING - 100 * TICK_SPACING;
    const upper = lower + 200 * TICK_SPACING;
    const owner = (await context.keys.signer('token:pool-owned:lp-owner')).address;
    const other = (await context.keys.signer('token:pool-owned:lp-other')).address;
    const seed = (label: string, who: Address, liquidity: bigint, tickLower: number, tickUpper: number) =>
      seedWhirlpoolPosition(context, `token:pool-owned:${label}`, {
        whirlpool: pool,
        owner: who,
        liquidity,
        tickLower,
        tickUpper,
      });
    await seed('position-owner', owner, OWNED_LIQUIDITY.owner, lower, upper);
    await seed('position-other', other, OWNED_LIQUIDITY.other, lower, upper);
    await seed('position-other-above', other, 50n * OWNED_LIQUIDITY.owner, upper, upper + 100 * TICK_SPACING);
    // The tick arrays a trade-size quote reads, holding the three positions' ticks.
    const ticks = mergeTicks([
      ...positionTicks(lower, upper, OWNED_LIQUIDITY.owner + OWNED_LIQUIDITY.other),
      ...positionTicks(upper, upper + 100 * TICK_SPACING, 50n * OWNED_LIQUIDITY.owner),
    ]);
    seedWhirlpoolTickArrays(context, pool, tick, TICK_SPACING, ticks);
    const market: MarketExpect = {
      dex: 'orca-whirlpool',
      pool,
      baseVault,
      quoteVault,
      quoteMint: WSOL_MINT,
      quoteReserve: quote.toString(),
      baseReserve: poolTokens.toString(),
      sqrtPriceX64: sqrtPriceX64.toString(),
    };
    return { vault: baseVault, vaultOwner: pool, market };
  };
}
