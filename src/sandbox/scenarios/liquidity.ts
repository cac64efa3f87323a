/**
 * Tokens with markets, for the liquidity checks: real mints, metadata and holders made with real
 * transactions; the pools (Raydium CPMM and Orca Whirlpool, in their real layouts and owned by their
 * real programs), their vaults and LP mints written directly, since the sandbox does not run the DEX
 * programs. The token's side of each pool is minted into the vault for real, so supply adds up.
 *   - token:pool-lp-burned   CPMM pool (wSOL), 100 SOL against half the supply, every LP token burned
 *   - token:pool-lp-creator  the same pool shape, every LP token in the creator's wallet (its actions
 *                            burn-lp and withdraw-lp; the CPMM pools count 100 LP units never minted, as
 *                            CPMM's initialize does)
 *   - token:pool-lp-jup-locked  the same pool shape, every LP token in a Jupiter Lock escrow (a
 *                            VestingEscrow in its real layout, owned by the real program, that nobody
 *                            can cancel and that releases nothing for five years)
 *   - token:pool-thin        Orca Whirlpool, 0.5 SOL against a 500 SOL market value
 *   - token:pool-amm-v4-lp-creator  Raydium AMM v4 pool (wSOL, its addresses derived from an OpenBook
 *                            market as the program derives them), every LP token in the creator's wallet:
 *                            its vault, owned by the shared AMM v4 authority, is all the scan sees at first
 *   - token:pool-amm-v4-pc-side  the same with the token on the pool's pc side (wSOL the coin): found
 *                            by the pc-side search, once the coin-side search finds nothing
 *   - token:no-market        holders, no pool anywhere
 *   - token:pool-owned       Orca Whirlpool whose in-range liquidity is 90 % one wallet's (liquidity-owners.ts)
 *   - token:pool-meteora-damm-v2  Meteora DAMM v2 customizable pool (wSOL), 100 SOL (meteora-pools.ts)
 *   - token:pool-meteora-damm-v1  Meteora DAMM v1 pool (wSOL), 50 SOL as dynamic-vault LP, LP in the creator's wallet
 *   - token:pool-meteora-damm-v1-locked  the same, its LP in a DAMM v1 lock escrow
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress, type KeyPairSigner } from '@solana/kit';
import { getMintToCheckedInstruction } from '@solana-program/token';
import { sqrtPriceAtTick } from '../../scans/liquidity/trade/concentrated.js';
import { findVestingEscrowAddress, VESTING_ESCROW_SIZE } from '../../solana/decoders/jupiter-lock.js';
import {
  cpmmMintOrder,
  findCpmmConfigAddress,
  findCpmmLpMintAddress,
  findCpmmPoolAddress,
  findCpmmVaultAddress,
} from '../../solana/decoders/raydium-cpmm.js';
import {
  JUPITER_LOCK_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CPMM_AUTHORITY,
  RAYDIUM_CPMM_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../solana/programs.js';
import { submit } from '../wallets.js';
import { u16 } from './builders/bytes.js';
import { isqrt } from './builders/isqrt.js';
import { encodeVestingEscrow } from './builders/locker-layouts.js';
import { createMetadata } from './builders/metaplex.js';
import { setTokenAccount } from './builders/pool-accounts.js';
import {
  encodeAmmV4Pool,
  encodeCpmmPool,
  encodeMintAccount,
  encodeWhirlpool,
} from './builders/pool-layouts.js';
import { positionTicks, seedWhirlpoolTickArrays } from './builders/tick-array-accounts.js';
import {
  AuthorityType,
  associatedTokenAccount,
  createMint,
  mintToOwners,
  revokeMintAuthorityInstruction,
} from './builders/token.js';
import { fundedSigner, holderDistribution, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { ownedWhirlpool } from './liquidity-owners.js';
import type { HolderExpect, MarketExpect, TokenExpect } from './manifest.js';
import { dammV1Pool, dammV2Pool } from './meteora-pools.js';

const DECIMALS = 6;
/** 1,000,000 tokens. */
const SUPPLY = 1_000_000n * 10n ** 6n;
const MINT_SIZE = 82;
/** Wallets sharing the rest of the supply equally: the ten largest hold 40 % of it, under every concentration flag. */
const WALLETS = 25;

interface PoolSeed {
  /** The pool's token vault (minted into for real) and its owner. */
  vault: Address;
  vaultOwner: Address;
  market: MarketExpect;
}

interface PooledSpec {
  name: string;
  label: string;
  description: string;
  symbol: string;
  /** Share of the supply in the pool's vault, in basis points; the rest is shared by WALLETS wallets. */
  poolBps: bigint;
  pool: ((context: ScenarioContext, mint: Address, creator: KeyPairSigner) => Promise<PoolSeed>) | null;
}

/** Seconds the sandbox's Jupiter Lock escrow stays shut: five years, whenever the sandbox is built. */
const LOCK_SECONDS = 5n * 365n * 86_400n;

/** Every LP token into a Jupiter Lock escrow's token account: the escrow PDA, owned by the real program. */
async function jupiterLockLp(context: ScenarioContext, lpMint: Address, creator: Address, amount: bigint) {
  const base = await context.keys.signer(`jup-lock-base:${lpMint}`);
  const escrow = await findVestingEscrowAddress(base.address);
  const cliffTime = BigInt(Math.floor(Date.now() / 1000)) + LOCK_SECONDS;
  context.chain.setAccount({
    address: escrow,
    lamports: context.chain.minimumBalanceForRentExemption(VESTING_ESCROW_SIZE),
    data: encodeVestingEscrow({
      recipient: creator,
      tokenMint: lpMint,
      creator,
      base: base.address,
      escrowBump: 255,
      cancelMode: 0,
      cliffTime,
      frequency: 0n,
      cliffUnlockAmount: amount,
      amountPerPeriod: 0n,
      numberOfPeriod: 0n,
    }),
    owner: JUPITER_LOCK_PROGRAM,
  });
  const tokenAccount = await associatedTokenAccount(escrow, lpMint, TOKEN_PROGRAM);
  setTokenAccount(context, tokenAccount, lpMint, escrow, amount);
  return {
    holder: { owner: escrow, tokenAccount, amount: amount.toString() },
    locker: {
      name: 'Jupiter Lock',
      program: JUPITER_LOCK_PROGRAM,
      escrow,
      unlocksAt: new Date(Number(cliffTime) * 1000).toISOString(),
    },
  };
}

/**
 * LP units CPMM's initialize counts as issued but never mints (raydium-cp-swap `lock_lp_amount`):
 * no withdrawal can take the pool's last reserves, so a pool whose LP was all withdrawn keeps dust.
 */
const CPMM_LOCKED_LP = 100n;

/** A Raydium CPMM pool of `mint` against wSOL (fee config 0): 100 SOL unless said, LP burned, in the creator's wallet or locked. */
function cpmmPool(
  lp: 'burned' | 'creator' | 'jupiter-lock',
  poolTokens: bigint,
  quote = 100n * LAMPORTS_PER_SOL,
) {
  return async (context: ScenarioContext, mint: Address, creator: KeyPairSigner): Promise<PoolSeed> => {
    const config = await findCpmmConfigAddress(0);
    const pool = await findCpmmPoolAddress(config, mint, WSOL_MINT);
    const [mint0, mint1] = cpmmMintOrder(mint, WSOL_MINT);
    const vault0 = await findCpmmVaultAddress(pool, mint0);
    const vault1 = await findCpmmVaultAddress(pool, mint1);
    const lpMint = await findCpmmLpMintAddress(pool);
    const lpSupply = isqrt(poolTokens * quote);
    const [baseVault, quoteVault] = mint0 === mint ? [vault0, vault1] : [vault1, vault0];
    const chain = context.chain;
    chain.setAccount({
      address: pool,
      lamports: chain.minimumBalanceForRentExemption(637),
      data: encodeCpmmPool({
        ammConfig: config,
        creator: creator.address,
        vault0,
        vault1,
        lpMint,
        mint0,
        mint1,
        tokenProgram: TOKEN_PROGRAM,
        authBump: 253,
        lpSupply,
        openTime: BigInt(Math.floor(Date.now() / 1000)),
      }),
      owner: RAYDIUM_CPMM_PROGRAM,
    });
    setTokenAccount(context, baseVault, mint, RAYDIUM_CPMM_AUTHORITY, 0n);
    setTokenAccount(context, quoteVault, WSOL_MINT, RAYDIUM_CPMM_AUTHORITY, quote);
    const minted = lpSupply - CPMM_LOCKED_LP;
    const lpMintSupply = lp === 'burned' ? 0n : minted;
    chain.setAccount({
      address: lpMint,
      lamports: chain.minimumBalanceForRentExemption(MINT_SIZE),
      data: encodeMintAccount(RAYDIUM_CPMM_AUTHORITY, lpMintSupply, 9),
      owner: TOKEN_PROGRAM,
    });
    const lpHolder =
      lp === 'creator' ? await associatedTokenAccount(creator.address, lpMint, TOKEN_PROGRAM) : null;
    if (lpHolder) setTokenAccount(context, lpHolder, lpMint, creator.address, minted);
    const locked =
      lp === 'jupiter-lock' ? await jupiterLockLp(context, lpMint, creator.address, minted) : null;
    return {
      vault: baseVault,
      vaultOwner: RAYDIUM_CPMM_AUTHORITY,
      market: {
        dex: 'raydium-cpmm',
        pool,
        baseVault,
        quoteVault,
        quoteMint: WSOL_MINT,
        quoteReserve: quote.toString(),
        baseReserve: poolTokens.toString(),
        lpMint,
        poolLpSupply: lpSupply.toString(),
        lpMintSupply: lpMintSupply.toString(),
        ...(lpHolder
          ? { lpHolders: [{ owner: creator.address, tokenAccount: lpHolder, amount: minted.toString() }] }
          : {}),
        ...(locked ? { lpHolders: [locked.holder], lpLocker: locked.locker } : {}),
      },
    };
  };
}

/** OpenBook v1 (Serum v3 fork): the market program AMM v4 pools name. */
const OPENBOOK_PROGRAM = 'srmqPvymJeFKQ4zGQed1GFppgkRHL9kaELCbyksJtPX' as Address;

/** An address AMM v4 derives from its market: seeds [program, market, `seed`]. */
async function ammV4Associated(market: Address, seed: string) {
  const encoder = getAddressEncoder();
  return getProgramDerivedAddress({
    programAddress: RAYDIUM_AMM_V4_PROGRAM,
    seeds: [encoder.encode(RAYDIUM_AMM_V4_PROGRAM), encoder.encode(market), seed],
  });
}

/**
 * A Raydium AMM v4 pool of `mint` against wSOL, 100 SOL, every LP token in the creator's wallet.
 * `mintSide` says which of the pool's sides holds the token: 'coin' (as nearly every pool has it, so
 * the scan's coin-side search finds it) or 'pc' (wSOL as the coin: only the pc-side search does).
 */
function ammV4Pool(poolTokens: bigint, label: string, mintSide: 'coin' | 'pc' = 'coin') {
  return async (context: ScenarioContext, mint: Address, creator: KeyPairSigner): Promise<PoolSeed> => {
    const quote = 100n * LAMPORTS_PER_SOL;
    const market = (await context.keys.signer(`${label}:openbook-market`)).address;
    const [pool, nonce] = await ammV4Associated(market, 'amm_associated_seed');
    const [coinVault] = await ammV4Associated(market, 'coin_vault_associated_seed');
    const [pcVault] = await ammV4Associated(market, 'pc_vault_associated_seed');
    const [lpMint] = await ammV4Associated(market, 'lp_mint_associated_seed');
    const [openOrders] = await ammV4Associated(market, 'open_order_associated_seed');
    const [targetOrders] = await ammV4Associated(market, 'target_associated_seed');
    const lpSupply = isqrt(poolTokens * quote);
    const chain = context.chain;
    const onCoin = mintSide === 'coin';
    const [tokenVault, quoteVault] = onCoin ? [coinVault, pcVault] : [pcVault, coinVault];
    chain.setAccount({
      address: pool,
      lamports: chain.minimumBalanceForRentExemption(752),
      data: encodeAmmV4Pool({
        nonce,
        coinDecimals: onCoin ? DECIMALS : 9,
        pcDecimals: onCoin ? 9 : DECIMALS,
        coinVault,
        pcVault,
        coinMint: onCoin ? mint : WSOL_MINT,
        pcMint: onCoin ? WSOL_MINT : mint,
        lpMint,
        openOrders,
        market,
        marketProgram: OPENBOOK_PROGRAM,
        targetOrders,
        ammOwner: creator.address,
        lpAmount: lpSupply,
      }),
      owner: RAYDIUM_AMM_V4_PROGRAM,
    });
    setTokenAccount(context, tokenVault, mint, RAYDIUM_AMM_V4_AUTHORITY, 0n);
    setTokenAccount(context, quoteVault, WSOL_MINT, RAYDIUM_AMM_V4_AUTHORITY, quote);
    chain.setAccount({
      address: lpMint,
      lamports: chain.minimumBalanceForRentExemption(MINT_SIZE),
      data: encodeMintAccount(RAYDIUM_AMM_V4_AUTHORITY, lpSupply, DECIMALS),
      owner: TOKEN_PROGRAM,
    });
    const lpHolder = await associatedTokenAccount(creator.address, lpMint, TOKEN_PROGRAM);
    setTokenAccount(context, lpHolder, lpMint, creator.address, lpSupply);
    return {
      vault: tokenVault,
      vaultOwner: RAYDIUM_AMM_V4_AUTHORITY,
      market: {
        dex: 'raydium-amm-v4',
        pool,
        baseVault: tokenVault,
        quoteVault,
        quoteMint: WSOL_MINT,
        quoteReserve: quote.toString(),
        baseReserve: poolTokens.toString(),
        lpMint,
        poolLpSupply: lpSupply.toString(),
        lpMintSupply: lpSupply.toString(),
        lpHolders: [{ owner: creator.address, tokenAccount: lpHolder, amount: lpSupply.toString() }],
      },
    };
  };
}

/** The thin Whirlpool's one position: ticks −16 000 to −128, around its price's tick (−6 932). */
const THIN_RANGE = { lower: -16_000, upper: -128 } as const;

/**
 * An Orca Whirlpool of `mint` against wSOL priced at 0.5 lamport per unit (500 SOL for the supply),
 * holding 0.5 SOL: one position whose liquidity holds exactly that below the price, and its tick
 * arrays (the current one and one each side), so a buy crosses the position's upper tick.
 */
function thinWhirlpool(poolTokens: bigint) {
  return async (context: ScenarioContext, mint: Address): Promise<PoolSeed> => {
    const quote = LAMPORTS_PER_SOL / 2n;
    const config = (await context.keys.signer('token:pool-thin:whirlpools-config')).address;
    const encoder = getAddressEncoder();
    const [pool, bump] = await getProgramDerivedAddress({
      programAddress: ORCA_WHIRLPOOL_PROGRAM,
      seeds: ['whirlpool', encoder.encode(config), encoder.encode(mint), encoder.encode(WSOL_MINT), u16(64)],
    });
    const baseVault = (await context.keys.signer('token:pool-thin:vault-a')).address;
    const quoteVault = (await context.keys.signer('token:pool-thin:vault-b')).address;
    const sqrtPriceX64 = BigInt(Math.round(Math.sqrt(0.5) * 2 ** 64));
    const tickCurrent = Math.floor(Math.log(0.5) / Math.log(1.0001));
    // One position from THIN_RANGE.lower up to THIN_RANGE.upper, holding the vault's 0.5 SOL below the price.
    const liquidity = (quote * 2n ** 64n) / (sqrtPriceX64 - sqrtPriceAtTick(THIN_RANGE.lower));
    seedWhirlpoolTickArrays(
      context,
      pool,
      tickCurrent,
      64,
      positionTicks(THIN_RANGE.lower, THIN_RANGE.upper, liquidity),
    );
    context.chain.setAccount({
      address: pool,
      lamports: context.chain.minimumBalanceForRentExemption(653),
      data: encodeWhirlpool({
        config,
        bump,
        tickSpacing: 64,
        liquidity,
        sqrtPriceX64,
        tickCurrent,
        mintA: mint,
        vaultA: baseVault,
        mintB: WSOL_MINT,
        vaultB: quoteVault,
      }),
      owner: ORCA_WHIRLPOOL_PROGRAM,
    });
    setTokenAccount(context, baseVault, mint, pool, 0n);
    setTokenAccount(context, quoteVault, WSOL_MINT, pool, quote);
    return {
      vault: baseVault,
      vaultOwner: pool,
      market: {
        dex: 'orca-whirlpool',
        pool,
        baseVault,
        quoteVault,
        quoteMint: WSOL_MINT,
        quoteReserve: quote.toString(),
        baseReserve: poolTokens.toString(),
        sqrtPriceX64: sqrtPriceX64.toString(),
      },
    };
  };
}

/** The token's mint and its immutable Metaplex metadata, with real transactions. */
async function createPooledMint(context: ScenarioContext, spec: PooledSpec, creator: KeyPairSigner) {
  const mint = await context.keys.signer(`${spec.label}:mint`);
  await createMint(context.chain, {
    payer: creator,
    mint,
    tokenProgram: TOKEN_PROGRAM,
    decimals: DECIMALS,
    mintAuthority: creator,
  });
  const metadata = await createMetadata(context.chain, {
    payer: creator,
    mint: mint.address,
    mintAuthority: creator,
    updateAuthority: creator.address,
    name: `Sandbox ${spec.symbol}`,
    symbol: spec.symbol,
    uri: `https://sandbox.invalid/${spec.symbol}.json`,
    isMutable: false,
  });
  return { mint: mint.address, metadata: metadata.address };
}

/** The pool's share into its vault, for real. */
async function mintIntoPool(
  context: ScenarioContext,
  creator: KeyPairSigner,
  mint: Address,
  seeded: PoolSeed,
  poolTokens: bigint,
): Promise<HolderExpect> {
  await submit(context.chain, creator, [
    getMintToCheckedInstruction(
      { mint, token: seeded.vault, mintAuthority: creator, amount: poolTokens, decimals: DECIMALS },
      { programAddress: TOKEN_PROGRAM },
    ),
  ]);
  return { owner: seeded.vaultOwner, tokenAccount: seeded.vault, amount: poolTokens.toString() };
}

/** The rest of the supply shared equally by WALLETS wallets. */
async function mintToWallets(
  context: ScenarioContext,
  spec: PooledSpec,
  creator: KeyPairSigner,
  mint: Address,
  walletTokens: bigint,
): Promise<HolderExpect[]> {
  const grants = await Promise.all(
    Array.from({ length: WALLETS }, async (_, i) => ({
      owner: (await context.keys.signer(`${spec.label}:holder:${i}`)).address,
      amount: walletTokens / BigInt(WALLETS),
    })),
  );
  await mintToOwners(context.chain, creator, mint, creator, TOKEN_PROGRAM, DECIMALS, grants);
  const holders: HolderExpect[] = [];
  for (const g of grants) {
    holders.push({
      owner: g.owner,
      tokenAccount: await associatedTokenAccount(g.owner, mint, TOKEN_PROGRAM),
      amount: g.amount.toString(),
    });
  }
  return holders;
}

function pooledExpect(
  spec: PooledSpec,
  creator: Address,
  metadata: Address,
  holders: HolderExpect[],
  supply: bigint,
  seeded: PoolSeed | null,
): TokenExpect {
  return {
    program: 'spl-token',
    decimals: DECIMALS,
    supply: supply.toString(),
    mintAuthority: null,
    freezeAuthority: null,
    extensions: [],
    ...holderDistribution(holders, supply),
    metaplex: {
      address: metadata,
      updateAuthority: creator,
      name: `Sandbox ${spec.symbol}`,
      symbol: spec.symbol,
      isMutable: false,
    },
    ...(seeded ? { market: seeded.market } : {}),
  };
}

async function seedPooledToken(context: ScenarioContext, spec: PooledSpec): Promise<BuiltSubject> {
  const creator = await fundedSigner(context, `${spec.label}:creator`, 200n * LAMPORTS_PER_SOL);
  const { mint, metadata } = await createPooledMint(context, spec, creator);
  const poolTokens = (SUPPLY * spec.poolBps) / 10_000n;
  const seeded = spec.pool ? await spec.pool(context, mint, creator) : null;
  const holders: HolderExpect[] = [];
  if (seeded) holders.push(await mintIntoPool(context, creator, mint, seeded, poolTokens));
  const walletTokens = SUPPLY - (seeded ? poolTokens : 0n);
  holders.push(...(await mintToWallets(context, spec, creator, mint, walletTokens)));
  await submit(context.chain, creator, [
    revokeMintAuthorityInstruction(mint, creator, TOKEN_PROGRAM, AuthorityType.MintTokens),
  ]);
  const supply = (seeded ? poolTokens : 0n) + (walletTokens / BigInt(WALLETS)) * BigInt(WALLETS);
  return {
    name: spec.name,
    kind: 'token',
    address: mint,
    description: spec.description,
    expect: pooledExpect(spec, creator.address, metadata, holders, supply, seeded),
  };
}

/** Half the supply in the pool: the deep pools' share. */
const HALF = 5_000n;
/** The thin Whirlpool's share of the supply. */
const THIN = 3_000n;

/** Tokens with pools (and one without), three weeks old, beside the other established tokens. */
const POOLED_TOKENS: readonly PooledSpec[] = [
  {
    name: 'token:pool-lp-burned',
    label: 'token:pool-lp-burned',
    description:
      'SPL token traded in a Raydium CPMM pool against 100 SOL (half the supply in the pool); every LP token has been burned',
    symbol: 'LPBURN',
    poolBps: HALF,
    pool: cpmmPool('burned', (SUPPLY * HALF) / 10_000n),
  },
  {
    name: 'token:pool-lp-creator',
    label: 'token:pool-lp-creator',
    description:
      'SPL token traded in a Raydium CPMM pool against 100 SOL; every LP token sits in the creator’s wallet, which can pull the liquidity',
    symbol: 'LPRUG',
    poolBps: HALF,
    pool: cpmmPool('creator', (SUPPLY * HALF) / 10_000n),
  },
  {
    name: 'token:pool-lp-jup-locked',
    label: 'token:pool-lp-jup-locked',
    description:
      'SPL token traded in a Raydium CPMM pool against 100 SOL; every LP token sits in a Jupiter Lock escrow nobody can cancel, releasing nothing for five years',
    symbol: 'LPLOCK',
    poolBps: HALF,
    pool: cpmmPool('jupiter-lock', (SUPPLY * HALF) / 10_000n),
  },
  {
    name: 'token:pool-amm-v4-lp-creator',
    label: 'token:pool-amm-v4-lp-creator',
    description:
      'SPL token traded in a Raydium AMM v4 pool against 100 SOL (half the supply); its vault is owned by the shared AMM v4 authority, and every LP token sits in the creator’s wallet',
    symbol: 'AMMRUG',
    poolBps: HALF,
    pool: ammV4Pool((SUPPLY * HALF) / 10_000n, 'token:pool-amm-v4-lp-creator'),
  },
  {
    name: 'token:pool-amm-v4-pc-side',
    label: 'token:pool-amm-v4-pc-side',
    description:
      'SPL token on the pc side of a Raydium AMM v4 pool whose coin side is 100 SOL (half the supply): the coin-side search for its vault finds nothing, the pc-side search finds the pool; every LP token sits in the creator’s wallet',
    symbol: 'AMMPC',
    poolBps: HALF,
    pool: ammV4Pool((SUPPLY * HALF) / 10_000n, 'token:pool-amm-v4-pc-side', 'pc'),
  },
  {
    name: 'token:pool-thin',
    label: 'token:pool-thin',
    description:
      'SPL token whose only market is an Orca Whirlpool holding 0.5 SOL, priced so the supply is worth 500 SOL: 0.1 % of its market value',
    symbol: 'THIN',
    poolBps: THIN,
    pool: thinWhirlpool((SUPPLY * THIN) / 10_000n),
  },
  // Not thin next to its market value (the pool holds a fifth of the supply against 3 SOL: 20 % of
  // it), but a $1,000 trade (6.7 SOL at the sandbox's $150 SOL) is twice the pool's SOL.
  {
    name: 'token:trade-thin',
    label: 'token:trade-thin',
    description:
      'SPL token whose only market is a Raydium CPMM pool of 3 SOL against a fifth of the supply (LP burned): deep next to its market value, so not LIQUIDITY_THIN, yet a $1,000 buy moves its price by two thirds and selling it back loses most of it',
    symbol: 'TTHIN',
    poolBps: 2_000n,
    pool: cpmmPool('burned', (SUPPLY * 2_000n) / 10_000n, 3n * LAMPORTS_PER_SOL),
  },
  {
    name: 'token:no-market',
    label: 'token:no-market',
    description: 'SPL token held by 25 wallets, authorities revoked, with no pool on any DEX',
    symbol: 'NOMKT',
    poolBps: 0n,
    pool: null,
  },
  {
    name: 'token:pool-owned',
    label: 'token:pool-owned',
    description:
      "SPL token whose only market is an Orca Whirlpool (Orca's public config) against 100 SOL: one wallet's position holds 90 % of its in-range liquidity",
    symbol: 'OWNED',
    poolBps: 1_000n,
    pool: ownedWhirlpool((SUPPLY * 1_000n) / 10_000n),
  },
];

/** Tokens whose only market is a Meteora DAMM pool, found at the address Meteora derives. */
const METEORA_TOKENS: readonly PooledSpec[] = [
  {
    name: 'token:pool-meteora-damm-v2',
    label: 'token:pool-meteora-damm-v2',
    description:
      'SPL token traded in a Meteora DAMM v2 customizable pool against 100 SOL (half the supply in the pool); its vaults belong to DAMM v2’s shared pool authority, so only the pool address derived from the two mints locates it',
    symbol: 'DAMM2',
    poolBps: HALF,
    pool: dammV2Pool((SUPPLY * HALF) / 10_000n),
  },
  {
    name: 'token:pool-meteora-damm-v1',
    label: 'token:pool-meteora-damm-v1',
    description:
      'SPL token traded in a Meteora DAMM v1 pool against 50 SOL held as LP of Meteora’s shared wSOL vault (1,000 SOL in all); every LP token of the pool sits in the creator’s wallet, which can pull the liquidity',
    symbol: 'DAMM1',
    poolBps: HALF,
    pool: dammV1Pool((SUPPLY * HALF) / 10_000n),
  },
  {
    name: 'token:pool-meteora-damm-v1-locked',
    label: 'token:pool-meteora-damm-v1-locked',
    description:
      'SPL token traded in a Meteora DAMM v1 pool against 50 SOL, every LP token of which sits in a DAMM v1 lock escrow of the creator (the program never releases it, only its fees)',
    symbol: 'DAMM1L',
    poolBps: HALF,
    pool: dammV1Pool((SUPPLY * HALF) / 10_000n, 'lock-escrow'),
  },
];

export async function seedLiquidityScenarios(context: ScenarioContext): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (const spec of [...POOLED_TOKENS, ...METEORA_TOKENS]) built.push(await seedPooledToken(context, spec));
  return built;
}
