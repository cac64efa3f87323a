/**
 * pump.fun subjects. The sandbox has no pump program body, so the curve and pool accounts are written in
 * pump's exact layouts at their PDAs; everything the SPL programs own (mint, metadata, the curve's token
 * account, holders, pool vaults) is made with real transactions, and the mint authority is revoked for real.
 *
 * Reserves follow pump's constant-product curve from the Global defaults: 1.073e15 virtual tokens against
 * 30 SOL virtual, 793.1M tokens sellable, 1e15 supply, 6 decimals.
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getSyncNativeInstruction,
} from '@solana-program/token';
import {
  findBondingCurveAddress,
  INITIAL_REAL_TOKEN_RESERVES,
} from '../../solana/decoders/pump-bonding-curve.js';
import { findPumpPoolAuthority, findPumpSwapLpMint } from '../../solana/decoders/pumpswap-pool.js';
import {
  PUMP_MINT_AUTHORITY,
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../solana/programs.js';
import { submit } from '../wallets.js';
import { u16 } from './builders/bytes.js';
import { isqrt } from './builders/isqrt.js';
import {
  BONDING_CURVE_SIZE,
  encodeBondingCurve,
  encodePumpSwapPool,
  PUMPSWAP_POOL_SIZE,
} from './builders/layouts.js';
import { createMetadata } from './builders/metaplex.js';
import { HOUR, MINUTE } from './builders/timeline.js';
import {
  AuthorityType,
  associatedTokenAccount,
  createMint,
  type Grant,
  mintToOwnersInstructions,
  revokeMintAuthorityInstruction,
} from './builders/token.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { PumpfunExpect, PumpPoolExpect, WalletExpect } from './manifest.js';

export const PUMP_DECIMALS = 6;
export const PUMP_TOTAL_SUPPLY = 1_000_000_000_000_000n;
export const INITIAL_VIRTUAL_TOKEN_RESERVES = 1_073_000_000_000_000n;
export const INITIAL_VIRTUAL_QUOTE_RESERVES = 30_000_000_000n;
/** Lamports the migration moves into the pool (≈ the 85 SOL a curve raises). */
const GRADUATION_QUOTE_LAMPORTS = 85n * LAMPORTS_PER_SOL;

export interface CurveState {
  virtualTokenReserves: bigint;
  virtualQuoteReserves: bigint;
  realTokenReserves: bigint;
  realQuoteReserves: bigint;
}

/** The curve after `sold` tokens were bought: x·y = k, the SOL side rounded up as the program does. */
export function curveAfterSelling(sold: bigint): CurveState {
  const k = INITIAL_VIRTUAL_TOKEN_RESERVES * INITIAL_VIRTUAL_QUOTE_RESERVES;
  const virtualTokenReserves = INITIAL_VIRTUAL_TOKEN_RESERVES - sold;
  const virtualQuoteReserves = (k + virtualTokenReserves - 1n) / virtualTokenReserves;
  return {
    virtualTokenReserves,
    virtualQuoteReserves,
    realTokenReserves: INITIAL_REAL_TOKEN_RESERVES - sold,
    realQuoteReserves: virtualQuoteReserves - INITIAL_VIRTUAL_QUOTE_RESERVES,
  };
}

interface LaunchSpec {
  label: string;
  creator: KeyPairSigner;
  name: string;
  symbol: string;
  /** Tokens bought off the curve (base units); graduation sells all 793.1M. */
  sold: bigint;
  graduated: boolean;
  /** Tokens the creator bought at creation (its "dev buy"), part of `sold`; it keeps them. */
  devBuy: bigint;
  buyers: number;
}

export interface Launch {
  mint: Address;
  expect: PumpfunExpect;
  signatures: string[];
}

async function poolAddress(
  mint: Address,
  poolAuthority: Address,
): Promise<{ address: Address; bump: number }> {
  const encoder = getAddressEncoder();
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: PUMPSWAP_PROGRAM,
    seeds: ['pool', u16(0), encoder.encode(poolAuthority), encoder.encode(mint), encoder.encode(WSOL_MINT)],
  });
  return { address, bump };
}

/** The coin's mint and its immutable Metaplex metadata, with real transactions. */
async function createCoin(context: ScenarioContext, spec: LaunchSpec) {
  const { chain } = context;
  const mint = await context.keys.signer(`${spec.label}:mint`);
  const mintSignature = await createMint(chain, {
    payer: spec.creator,
    mint,
    tokenProgram: TOKEN_PROGRAM,
    decimals: PUMP_DECIMALS,
    mintAuthority: spec.creator,
  });
  // Legacy pump coins: Metaplex metadata owned by pump's mint-authority PDA, immutable.
  const metadata = await createMetadata(chain, {
    payer: spec.creator,
    mint: mint.address,
    mintAuthority: spec.creator,
    updateAuthority: PUMP_MINT_AUTHORITY,
    name: spec.name,
    symbol: spec.symbol,
    uri: `https://sandbox.invalid/pump/${spec.symbol}.json`,
    isMutable: false,
  });
  return { mint: mint.address, metadata: metadata.address, signatures: [mintSignature, metadata.signature] };
}

/** The curve's tokens, then the creator's dev buy in its own account, then the buyers' shares of the rest. */
async function launchGrants(
  context: ScenarioContext,
  spec: LaunchSpec,
  bondingCurve: Address,
  sold: bigint,
  curveTokenBalance: bigint,
): Promise<Grant[]> {
  if (spec.devBuy <= 0n || spec.devBuy >= sold)
    throw new Error(`${spec.label}: the dev buy must be part of the tokens sold`);
  const grants: Grant[] = [
    { owner: bondingCurve, amount: curveTokenBalance },
    { owner: spec.creator.address, amount: spec.devBuy },
  ];
  const bought = sold - spec.devBuy;
  for (let i = 0; i < spec.buyers; i++) {
    const share = bought / BigInt(spec.buyers);
    const amount = i === spec.buyers - 1 ? bought - share * BigInt(spec.buyers - 1) : share;
    grants.push({ owner: (await context.keys.signer(`${spec.label}:buyer:${i}`)).address, amount });
  }
  return grants;
}

/** The pool's wSOL vault: a real wrapped-SOL account holding the migrated lamports. */
async function fundPoolQuoteVault(
  context: ScenarioContext,
  creator: KeyPairSigner,
  pool: Address,
  vault: Address,
): Promise<string> {
  const submitted = await submit(context.chain, creator, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: creator,
      ata: vault,
      owner: pool,
      mint: WSOL_MINT,
    }),
    getTransferSolInstruction({ source: creator, destination: vault, amount: GRADUATION_QUOTE_LAMPORTS }),
    getSyncNativeInstruction({ account: vault }),
  ]);
  return submitted.signature;
}

/** A graduated coin's canonical PumpSwap pool: its wSOL vault for real, the pool account written. */
async function migrateToPool(
  context: ScenarioContext,
  creator: KeyPairSigner,
  mint: Address,
): Promise<{ address: Address; pool: PumpPoolExpect; signature: string }> {
  const { chain } = context;
  const migrationReserve = PUMP_TOTAL_SUPPLY - INITIAL_REAL_TOKEN_RESERVES;
  const poolAuthority = await findPumpPoolAuthority(mint);
  const { address, bump } = await poolAddress(mint, poolAuthority);
  const poolBaseTokenAccount = await associatedTokenAccount(address, mint, TOKEN_PROGRAM);
  const poolQuoteTokenAccount = await associatedTokenAccount(address, WSOL_MINT, TOKEN_PROGRAM);
  const lpMint = await findPumpSwapLpMint(address);
  const lpSupply = isqrt(migrationReserve * GRADUATION_QUOTE_LAMPORTS);
  const signature = await fundPoolQuoteVault(context, creator, address, poolQuoteTokenAccount);
  const fields = {
    creator: poolAuthority,
    coinCreator: creator.address,
    baseMint: mint,
    quoteMint: WSOL_MINT,
    lpMint,
    poolBaseTokenAccount,
    poolQuoteTokenAccount,
  };
  chain.setAccount({
    address,
    lamports: chain.minimumBalanceForRentExemption(PUMPSWAP_POOL_SIZE),
    data: encodePumpSwapPool({ ...fields, poolBump: bump, index: 0, lpSupply }),
    owner: PUMPSWAP_PROGRAM,
  });
  const pool: PumpPoolExpect = {
    address,
    ...fields,
    lpSupply: lpSupply.toString(),
    baseReserve: migrationReserve.toString(),
    quoteReserveLamports: GRADUATION_QUOTE_LAMPORTS.toString(),
  };
  return { address, pool, signature };
}

/** Mints every grant and revokes the mint authority, eight instructions a transaction. */
async function mintAndRevoke(
  context: ScenarioContext,
  creator: KeyPairSigner,
  mint: Address,
  grants: readonly Grant[],
): Promise<string[]> {
  const instructions = await mintToOwnersInstructions(creator, mint, creator, TOKEN_PROGRAM, PUMP_DECIMALS, [
    ...grants,
  ]);
  instructions.push(revokeMintAuthorityInstruction(mint, creator, TOKEN_PROGRAM, AuthorityType.MintTokens));
  const signatures: string[] = [];
  for (let i = 0; i < instructions.length; i += 8) {
    signatures.push((await submit(context.chain, creator, instructions.slice(i, i + 8))).signature);
  }
  return signatures;
}

/** After migration pump leaves the curve complete with no real reserves; the virtual ones stay at the end state. */
function writeCurve(
  context: ScenarioContext,
  spec: LaunchSpec,
  bondingCurve: Address,
  sold: bigint,
): CurveState {
  const end = curveAfterSelling(sold);
  const curve = spec.graduated ? { ...end, realTokenReserves: 0n, realQuoteReserves: 0n } : end;
  context.chain.setAccount({
    address: bondingCurve,
    lamports: context.chain.minimumBalanceForRentExemption(BONDING_CURVE_SIZE) + curve.realQuoteReserves,
    data: encodeBondingCurve({
      ...curve,
      tokenTotalSupply: PUMP_TOTAL_SUPPLY,
      complete: spec.graduated,
      creator: spec.creator.address,
    }),
    owner: PUMP_PROGRAM,
  });
  return curve;
}

interface LaunchFacts {
  bondingCurve: Address;
  associatedBondingCurve: Address;
  metadata: Address;
  curve: CurveState;
  curveTokenBalance: bigint;
  sold: bigint;
  pool: PumpPoolExpect | undefined;
}

function launchExpect(spec: LaunchSpec, facts: LaunchFacts): PumpfunExpect {
  const { curve } = facts;
  return {
    bondingCurve: facts.bondingCurve,
    creatorTokens: spec.devBuy.toString(),
    associatedBondingCurve: facts.associatedBondingCurve,
    creator: spec.creator.address,
    complete: spec.graduated,
    curveDataLength: BONDING_CURVE_SIZE,
    virtualTokenReserves: curve.virtualTokenReserves.toString(),
    virtualQuoteReserves: curve.virtualQuoteReserves.toString(),
    realTokenReserves: curve.realTokenReserves.toString(),
    realQuoteReserves: curve.realQuoteReserves.toString(),
    tokenTotalSupply: PUMP_TOTAL_SUPPLY.toString(),
    curveTokenBalance: facts.curveTokenBalance.toString(),
    supply: PUMP_TOTAL_SUPPLY.toString(),
    decimals: PUMP_DECIMALS,
    mintAuthority: null,
    freezeAuthority: null,
    progressBps: Number((facts.sold * 10_000n) / INITIAL_REAL_TOKEN_RESERVES),
    metaplex: {
      address: facts.metadata,
      updateAuthority: PUMP_MINT_AUTHORITY,
      name: spec.name,
      symbol: spec.symbol,
      isMutable: false,
    },
    ...(facts.pool ? { pool: facts.pool } : {}),
  };
}

/** Creates one coin: mint + immutable metadata + holders with real transactions, then the curve (and pool) accounts. */
export async function launchPumpCoin(context: ScenarioContext, spec: LaunchSpec): Promise<Launch> {
  const { mint, metadata, signatures } = await createCoin(context, spec);
  const bondingCurve = await findBondingCurveAddress(mint);
  const associatedBondingCurve = await associatedTokenAccount(bondingCurve, mint, TOKEN_PROGRAM);
  const sold = spec.graduated ? INITIAL_REAL_TOKEN_RESERVES : spec.sold;
  const curveTokenBalance = spec.graduated ? 0n : PUMP_TOTAL_SUPPLY - sold;
  const grants = await launchGrants(context, spec, bondingCurve, sold, curveTokenBalance);
  let pool: PumpPoolExpect | undefined;
  if (spec.graduated) {
    const migrated = await migrateToPool(context, spec.creator, mint);
    pool = migrated.pool;
    grants.push({ owner: migrated.address, amount: PUMP_TOTAL_SUPPLY - INITIAL_REAL_TOKEN_RESERVES });
    signatures.push(migrated.signature);
  }
  signatures.push(...(await mintAndRevoke(context, spec.creator, mint, grants)));
  const curve = writeCurve(context, spec, bondingCurve, sold);
  const facts = { bondingCurve, associatedBondingCurve, metadata, curve, curveTokenBalance, sold, pool };
  return { mint, expect: launchExpect(spec, facts), signatures };
}

/** What a creator's launches add up to, for the subjects that name them. */
function launchesOf(launches: readonly Launch[]): NonNullable<PumpfunExpect['creatorLaunches']> {
  return {
    curves: launches.map((launch) => launch.expect.bondingCurve),
    mints: launches.map((launch) => launch.mint),
    complete: launches.filter((launch) => launch.expect.complete).length,
    incomplete: launches.filter((launch) => !launch.expect.complete).length,
  };
}

/** pump.fun's token units per whole token. */
const TOKENS = 1_000_000n;

/** A coin whose curve completed and migrated, 12 hours before the end. */
async function seedGraduated(context: ScenarioContext): Promise<BuiltSubject> {
  const creator = await fundedSigner(context, 'pumpfun:graduated:creator', 200n * LAMPORTS_PER_SOL);
  const graduated = await launchPumpCoin(context, {
    label: 'pumpfun:graduated',
    creator,
    name: 'Sandbox Graduate',
    symbol: 'GRAD',
    sold: INITIAL_REAL_TOKEN_RESERVES,
    graduated: true,
    // ≈ 0.6 SOL at the opening price: 2 % of the supply, under the 5 % that CREATOR_HOLDS_SUPPLY starts at.
    devBuy: 20_000_000n * TOKENS,
    // Enough holders that the ten largest hold well under half of the float (25 %).
    buyers: 40,
  });
  return {
    name: 'pumpfun:graduated',
    kind: 'pumpfun',
    address: graduated.mint,
    description:
      'pump.fun coin whose curve completed and migrated: complete curve, canonical PumpSwap pool with the 206.9M-token reserve and 85 SOL; the creator kept a 20M-token dev buy',
    expect: graduated.expect,
  };
}

/** A serial launcher: one coin graduates, then eight die on the curve within a few hours. */
async function launchSerial(
  context: ScenarioContext,
): Promise<{ creator: KeyPairSigner; launches: Launch[] }> {
  const { timeline } = context;
  const creator = await fundedSigner(context, 'pumpfun:serial:creator', 200n * LAMPORTS_PER_SOL);
  const launches: Launch[] = [];
  timeline.moveTo(11 * HOUR + 30 * MINUTE);
  launches.push(
    await launchPumpCoin(context, {
      label: 'pumpfun:serial:0',
      creator,
      name: 'Serial Zero',
      symbol: 'SER0',
      sold: INITIAL_REAL_TOKEN_RESERVES,
      graduated: true,
      devBuy: 30_000_000n * TOKENS,
      buyers: 6,
    }),
  );
  for (let i = 1; i <= 8; i++) {
    timeline.moveTo(11 * HOUR + 30 * MINUTE - i * 25 * MINUTE);
    launches.push(
      await launchPumpCoin(context, {
        label: `pumpfun:serial:${i}`,
        creator,
        name: `Serial ${i}`,
        symbol: `SER${i}`,
        // A 1M-token dev buy (≈ 0.03 SOL), then 0.5M–4M tokens bought: 0.04–0.14 SOL of real
        // reserves, a dead launch.
        sold: 1_000_000n * TOKENS + BigInt(i) * 500_000n * TOKENS,
        graduated: false,
        devBuy: 1_000_000n * TOKENS,
        buyers: 2,
      }),
    );
  }
  return { creator, launches };
}

/** A dumper: thirteen coins, one every eight minutes from 8 hours before the end, none of which ever got going. */
async function launchDumps(context: ScenarioContext): Promise<Launch[]> {
  context.timeline.moveTo(8 * HOUR);
  const dumper = await fundedSigner(context, 'pumpfun:dumper:creator', 50n * LAMPORTS_PER_SOL);
  const dumps: Launch[] = [];
  for (let i = 0; i < 13; i++) {
    context.timeline.moveTo(8 * HOUR - i * 8 * MINUTE);
    dumps.push(
      await launchPumpCoin(context, {
        label: `pumpfun:dumper:${i}`,
        creator: dumper,
        name: `Dump ${i}`,
        symbol: `DMP${i}`,
        // A 2M-token dev buy (≈ 0.06 SOL) and 1M tokens bought by one wallet: ≈ 0.08 SOL, dead.
        sold: 3_000_000n * TOKENS,
        graduated: false,
        devBuy: 2_000_000n * TOKENS,
        buyers: 1,
      }),
    );
  }
  return dumps;
}

/** A coin mid-curve, 6 hours before the end. */
async function seedCurveActive(context: ScenarioContext): Promise<BuiltSubject> {
  context.timeline.moveTo(6 * HOUR);
  const creator = await fundedSigner(context, 'pumpfun:curve-active:creator', 50n * LAMPORTS_PER_SOL);
  const active = await launchPumpCoin(context, {
    label: 'pumpfun:curve-active',
    creator,
    name: 'Sandbox Curve',
    symbol: 'CURVE',
    sold: (INITIAL_REAL_TOKEN_RESERVES * 40n) / 100n,
    graduated: false,
    // ≈ 0.3 SOL: 1 % of the supply.
    devBuy: 10_000_000n * TOKENS,
    buyers: 40,
  });
  return {
    name: 'pumpfun:curve-active',
    kind: 'pumpfun',
    address: active.mint,
    description:
      'pump.fun coin mid-curve: 40 % of the sellable tokens bought, creator set (with a 10M-token dev buy), authorities revoked',
    expect: active.expect,
  };
}

/** The newest coin of the serial launcher and of the dumper, each naming its creator's launches. */
function serialLatestSubjects(launches: readonly Launch[], dumps: readonly Launch[]): BuiltSubject[] {
  const latest = launches.at(-1);
  if (!latest) throw new Error('no serial launches');
  const latestDump = dumps.at(-1);
  if (!latestDump) throw new Error('no dumper launches');
  return [
    {
      name: 'pumpfun:serial-latest',
      kind: 'pumpfun',
      address: latest.mint,
      description:
        'The newest of wallet:pump-serial-creator’s nine coins: a dead launch with near-zero real SOL',
      expect: { ...latest.expect, creatorLaunches: launchesOf(launches) },
    },
    {
      name: 'pumpfun:dumper-latest',
      kind: 'pumpfun',
      address: latestDump.mint,
      description:
        'The newest of a creator’s thirteen coins, launched every eight minutes: it and the twelve before it all died on their curves, and the creator kept its dev buy of each',
      expect: { ...latestDump.expect, creatorLaunches: launchesOf(dumps) },
    },
  ];
}

/** The serial launcher's wallet, as /scan/wallet sees it. */
function serialCreatorSubject(
  context: ScenarioContext,
  creator: KeyPairSigner,
  launches: readonly Launch[],
): BuiltSubject {
  const { chain } = context;
  const signatures = launches.flatMap((launch) => launch.signatures);
  const times = signatures.map((signature) => chain.transaction(signature)?.blockTime ?? 0);
  const expect: WalletExpect = {
    signatureCount: signatures.length,
    failedCount: 0,
    firstBlockTime: Math.min(...times),
    lastBlockTime: Math.max(...times),
    lamports: (chain.getAccount(creator.address)?.lamports() ?? 0n).toString(),
    pumpLaunches: launchesOf(launches),
  };
  return {
    name: 'wallet:pump-serial-creator',
    kind: 'wallet',
    address: creator.address,
    description:
      'pump.fun creator with nine launches within four hours: one graduated, eight abandoned with near-zero real SOL on their curves',
    expect,
  };
}

/**
 * Curves and pools from 12 to 6 hours before the end: one coin graduated, a serial launcher's nine,
 * a dumper's thirteen dead coins, one mid-curve. Every creator dev-buys a small amount of its coins at
 * creation and keeps it (the dev buy is part of the tokens sold off the curve).
 */
export async function seedPumpfun(context: ScenarioContext): Promise<BuiltSubject[]> {
  const graduated = await seedGraduated(context);
  const serial = await launchSerial(context);
  const dumps = await launchDumps(context);
  const active = await seedCurveActive(context);
  return [
    graduated,
    active,
    ...serialLatestSubjects(serial.launches, dumps),
    serialCreatorSubject(context, serial.creator, serial.launches),
  ];
}
