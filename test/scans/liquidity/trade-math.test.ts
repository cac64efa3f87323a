/**
 * The trade-size quotes of each pool family, checked against the same trade worked out by hand
 * from the pool's raw account bytes — fields read here at their layout offsets, the swap computed
 * here in floating point by the textbook formula (constant product with the pool's fee, pump.fun's
 * curve, a concentrated-liquidity swap that crosses an initialized tick, a DLMM swap that crosses
 * a bin) — never with the scanner's decoders or math. Each must agree within 0.5 %. Real mainnet
 * pool bytes where the repository keeps them (Raydium CLMM, Meteora DLMM and DAMM v1, PumpSwap's
 * config, a CPMM config); the tick and bin arrays and the other pools in their real layouts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  type Address,
  address,
  generateKeyPairSigner,
  getAddressDecoder,
  getAddressEncoder,
} from '@solana/kit';
import { encodeBondingCurve, encodePumpSwapPool } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { encodeDammV2Pool } from '../../../src/sandbox/scenarios/builders/meteora-layouts.js';
import {
  encodeAmmV4Pool,
  encodeCpmmPool,
  encodeWhirlpool,
} from '../../../src/sandbox/scenarios/builders/pool-layouts.js';
import {
  encodeBinArray,
  encodeClmmTickArray,
  encodeWhirlpoolTickArray,
} from '../../../src/sandbox/scenarios/builders/trade-layouts.js';
import { curveMarketOf, marketOf } from '../../../src/scans/liquidity/markets.js';
import { clmmArrays, dlmmArrays, whirlpoolArrays } from '../../../src/scans/liquidity/trade/arrays.js';
import type { Leg, Unquotable, Venue } from '../../../src/scans/liquidity/trade/model.js';
import { venueOf } from '../../../src/scans/liquidity/trade/venues.js';
import type { RawAccount } from '../../../src/scans/token-facts/model.js';
import {
  METEORA_DAMM_V2_PROGRAM,
  METEORA_DLMM_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  PUMP_PROGRAM,
  PUMPSWAP_GLOBAL_CONFIG,
  PUMPSWAP_PROGRAM,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  RAYDIUM_CPMM_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { raw, splTokenAccount } from '../../helpers/token-accounts.js';
import { loadAccount } from '../../solana/fixtures.js';

// --- helpers that read and write addresses without the scanner's decoders -------------------------

const addressDecoder = getAddressDecoder();
function getAddr(data: Uint8Array, at: number): Address {
  return addressDecoder.decode(data.subarray(at, at + 32));
}
const addressBytes = (a: Address) => Uint8Array.from(getAddressEncoder().encode(a));
const FIXED = [
  'So11111111111111111111111111111111111111112',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  'mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So',
  'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn',
];
const addr = (i: number) => address(FIXED[i]!);

/** A Raydium CLMM AmmConfig: discriminator, then trade_fee_rate (u32) at offset 47. */
function clmmConfig(tradeFeeRate: number): Uint8Array {
  const data = new Uint8Array(117);
  data.set([218, 244, 33, 104, 203, 203, 43, 111], 0);
  dv(data).setUint32(47, tradeFeeRate, true);
  return data;
}

const LATER = 1_720_000_000;
const Q64 = 2 ** 64;
const dv = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);
const u64 = (data: Uint8Array, at: number) => Number(dv(data).getBigUint64(at, true));
const u128 = (data: Uint8Array, at: number) => u64(data, at) + u64(data, at + 8) * Q64;
const dump = (file: string): RawAccount => {
  const d = loadAccount(file);
  return { address: d.address, owner: d.owner, lamports: d.lamports, data: d.data };
};
/** A token account's amount, at its layout offset. */
const balance = (account: RawAccount) => u64(account.data, 64);
const map = (accounts: RawAccount[]) =>
  new Map<Address, RawAccount | null>(accounts.map((a) => [a.address, a]));

function quoted(v: Venue | Unquotable): Venue {
  assert.ok(!('why' in v), `quoted, not: ${'why' in v ? v.why : ''}`);
  return v as Venue;
}

function agrees(leg: Leg, expected: number, what: string) {
  assert.ok(leg.filled, `${what}: filled`);
  const got = Number(leg.out);
  assert.ok(Math.abs(got / expected - 1) <= 0.005, `${what}: ${got} vs ${expected} by hand`);
}

/** x·y = k with the fee taken from the input. */
const byHandCp = (rIn: number, rOut: number, amount: number, fee: number) =>
  (rOut * amount * (1 - fee)) / (rIn + amount * (1 - fee));

describe('trade-size quotes against the same trade by hand, from raw bytes', () => {
  let keys: Address[];
  before(async () => {
    keys = await Promise.all(Array.from({ length: 12 }, async () => (await generateKeyPairSigner()).address));
  });

  it('PumpSwap: constant product, the LP + protocol fee of its real GlobalConfig', () => {
    const [mint, pool, baseVault, quoteVault, lpMint] = keys as [Address, Address, Address, Address, Address];
    const config = dump('pumpswap-global-config.json');
    assert.equal(config.address, PUMPSWAP_GLOBAL_CONFIG);
    const poolAccount = raw(
      pool,
      PUMPSWAP_PROGRAM,
      encodePumpSwapPool({
        poolBump: 255,
        index: 0,
        creator: keys[6]!,
        baseMint: mint,
        quoteMint: WSOL_MINT,
        lpMint,
        poolBaseTokenAccount: baseVault,
        poolQuoteTokenAccount: quoteVault,
        lpSupply: 1_000n,
        coinCreator: keys[6]!,
      }),
    );
    const base = splTokenAccount(baseVault, mint, pool, 206_900_000_000_000n);
    const quote = splTokenAccount(quoteVault, WSOL_MINT, pool, 84_990_000_000n);
    const v = quoted(venueOf(marketOf(poolAccount, mint)!, map([poolAccount, base, quote, config]), LATER));
    const fee = (u64(config.data, 40) + u64(config.data, 48)) / 10_000; // lp_fee_bps, protocol_fee_bps
    assert.equal(fee, 0.0025);
    const sol = 5_000_000_000;
    agrees(v.buy(BigInt(sol)), byHandCp(balance(quote), balance(base), sol, fee), 'buy');
    agrees(v.sell(10_000_000_000_000n), byHandCp(balance(base), balance(quote), 1e13, fee), 'sell');
  });

  it('Raydium AMM v4: constant product, its own swap fee (fees.swap_fee_numerator / denominator)', () => {
    const [mint, , coinVault, pcVault, lpMint, market] = keys as Address[] as [
      Address,
      Address,
      Address,
      Address,
      Address,
      Address,
    ];
    const pool = raw(
      keys[1]!,
      RAYDIUM_AMM_V4_PROGRAM,
      encodeAmmV4Pool({
        nonce: 254,
        coinDecimals: 6,
        pcDecimals: 9,
        coinVault,
        pcVault,
        coinMint: mint,
        pcMint: WSOL_MINT,
        lpMint,
        openOrders: keys[7]!,
        market,
        marketProgram: keys[8]!,
        targetOrders: keys[9]!,
        ammOwner: keys[10]!,
        lpAmount: 1_000n,
      }),
    );
    const coin = splTokenAccount(coinVault, mint, keys[11]!, 500_000_000_000n);
    const pc = splTokenAccount(pcVault, WSOL_MINT, keys[11]!, 20_000_000_000n);
    const v = quoted(venueOf(marketOf(pool, mint)!, map([pool, coin, pc]), LATER));
    const fee = u64(pool.data, 176) / u64(pool.data, 184);
    assert.equal(fee, 0.0025);
    agrees(v.buy(6_670_000_000n), byHandCp(balance(pc), balance(coin), 6.67e9, fee), 'buy');
    agrees(v.sell(50_000_000_000n), byHandCp(balance(coin), balance(pc), 5e10, fee), 'sell');
  });

  it('Raydium CPMM: constant product, the trade fee its real AmmConfig (index 2) states', () => {
    const config = dump('raydium-cpmm-amm-config-2fGXL8uh.json');
    const [mint, pool, vault0, vault1, lpMint] = keys as [Address, Address, Address, Address, Address];
    const account = raw(
      pool,
      RAYDIUM_CPMM_PROGRAM,
      encodeCpmmPool({
        ammConfig: config.address,
        creator: keys[6]!,
        vault0,
        vault1,
        lpMint,
        mint0: mint,
        mint1: WSOL_MINT,
        tokenProgram: keys[7]!,
        authBump: 253,
        lpSupply: 1_000n,
        openTime: 0n,
      }),
    );
    const base = splTokenAccount(vault0, mint, keys[8]!, 200_000_000_000n);
    const quote = splTokenAccount(vault1, WSOL_MINT, keys[8]!, 3_000_000_000n);
    const v = quoted(venueOf(marketOf(account, mint)!, map([account, base, quote]), LATER));
    const fee = u64(config.data, 12) / 1_000_000; // trade_fee_rate
    assert.equal(fee, 0.02);
    agrees(v.buy(6_666_666_667n), byHandCp(3e9, 2e11, 6_666_666_667, fee), 'buy');
    agrees(v.sell(444_444_444_444n), byHandCp(2e11, 3e9, 444_444_444_444, fee), 'sell');
  });

  it('Meteora DAMM v1: constant product over its share of the real dynamic vaults (the real SOL/mSOL pool, its curve set to constant product)', () => {
    const files = [
      'meteora-vault-FERjPVNE-wsol.json',
      'meteora-vault-8p1VKP45-msol.json',
      'meteora-vault-lp-mint-FZN7QZ8Z-wsol.json',
      'meteora-vault-lp-mint-21bR3D4Q-msol.json',
      'meteora-damm-v1-vault-lp-HWnWnLvB-wsol.json',
      'meteora-damm-v1-vault-lp-GGG4DxkY-msol.json',
    ];
    const [solVault, msolVault, solLpMint, msolLpMint, solPoolLp, msolPoolLp] = files.map(
      dump,
    ) as RawAccount[];
    const real = dump('meteora-damm-v1-pool-HcjZvfeS-sol-msol.json');
    const MSOL = address('mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So');
    // The real pool is a stable-swap pool: not quoted by constant product, and it says so.
    const stable = venueOf(marketOf(real, MSOL)!, map([real]), LATER);
    assert.match((stable as Unquotable).why, /stable/);
    const data = Uint8Array.from(real.data);
    data[874] = 0;
    const pool = { ...real, data };
    const accounts = map([pool, solVault!, msolVault!, solLpMint!, msolLpMint!, solPoolLp!, msolPoolLp!]);
    const v = quoted(venueOf(marketOf(pool, MSOL)!, accounts, LATER));
    // Reserve = the vault's total_amount (offset 11; its profit long unlocked) × the pool's vault LP / the LP supply (offset 36).
    const reserve = (vault: RawAccount, lpMint: RawAccount, poolLp: RawAccount) =>
      (u64(vault.data, 11) * balance(poolLp)) / u64(lpMint.data, 36);
    const sol = reserve(solVault!, solLpMint!, solPoolLp!);
    const msol = reserve(msolVault!, msolLpMint!, msolPoolLp!);
    const fee = u64(pool.data, 330) / u64(pool.data, 338);
    agrees(v.buy(10_000_000_000n), byHandCp(sol, msol, 1e10, fee), 'buy');
    agrees(v.sell(10_000_000_000n), byHandCp(msol, sol, 1e10, fee), 'sell');
  });

  it('Meteora DAMM v2: its one price range, as a constant product of its virtual reserves L/√P and L·√P', () => {
    const [mint, pool, vaultA, vaultB] = keys as [Address, Address, Address, Address];
    const sqrt = BigInt(Math.floor(Math.sqrt(100e9 / 500e12) * Q64));
    const account = raw(
      pool,
      METEORA_DAMM_V2_PROGRAM,
      encodeDammV2Pool({
        mintA: mint,
        mintB: WSOL_MINT,
        vaultA,
        vaultB,
        liquidity: 7_071_067_811_865n << 64n,
        sqrtPriceX64: sqrt,
        creator: keys[6]!,
        amountA: 500_000_000_000_000n,
        amountB: 100_000_000_000n,
      }),
    );
    const a = splTokenAccount(vaultA, mint, keys[7]!, 500_000_000_000_000n);
    const b = splTokenAccount(vaultB, WSOL_MINT, keys[7]!, 100_000_000_000n);
    const v = quoted(venueOf(marketOf(account, mint)!, map([account, a, b]), LATER));
    const L = u128(account.data, 360) / Q64;
    const s = u128(account.data, 456) / Q64;
    const fee = u64(account.data, 8) / 1e9;
    agrees(v.buy(6_670_000_000n), byHandCp(L * s, L / s, 6.67e9, fee), 'buy');
    agrees(v.sell(33_350_000_000_000n), byHandCp(L / s, L * s, 3.335e13, fee), 'sell');
  });

  it('Meteora DAMM v2 whose lower price bound reads zero: not quoted, with a reason (a sale past it would divide by zero)', () => {
    const [mint, pool, vaultA, vaultB] = keys as [Address, Address, Address, Address];
    const data = encodeDammV2Pool({
      mintA: mint,
      mintB: WSOL_MINT,
      vaultA,
      vaultB,
      liquidity: 7_071_067_811_865n << 64n,
      sqrtPriceX64: BigInt(Math.floor(Math.sqrt(100e9 / 500e12) * Q64)),
      creator: keys[6]!,
      amountA: 500_000_000_000_000n,
      amountB: 100_000_000_000n,
    });
    data.fill(0, 424, 440); // sqrt_min_price, a u128
    const account = raw(pool, METEORA_DAMM_V2_PROGRAM, data);
    const a = splTokenAccount(vaultA, mint, keys[7]!, 500_000_000_000_000n);
    const b = splTokenAccount(vaultB, WSOL_MINT, keys[7]!, 100_000_000_000n);
    const venue = venueOf(marketOf(account, mint)!, map([account, a, b]), LATER);
    assert.ok('why' in venue, 'not quoted');
    assert.match(venue.why, /price range/);
  });

  it("pump.fun's bonding curve: its virtual reserves' product, the fee on the SOL side, bounded by its real reserves", () => {
    const [curveAddress, vault] = keys as [Address, Address];
    const curve = raw(
      curveAddress,
      PUMP_PROGRAM,
      encodeBondingCurve({
        virtualTokenReserves: 1_000_000_000_000_000n,
        virtualQuoteReserves: 32_000_000_000n,
        realTokenReserves: 720_000_000_000_000n,
        realQuoteReserves: 2_000_000_000n,
        tokenTotalSupply: 1_000_000_000_000_000n,
        complete: false,
        creator: keys[6]!,
      }),
    );
    const v = quoted(venueOf(curveMarketOf(curve, vault)!, map([curve]), LATER));
    const vt = u64(curve.data, 8);
    const vs = u64(curve.data, 16);
    const fee = 0.0125; // 0.95 % protocol + 0.30 % creator, on the SOL
    const sol = 6.67e9;
    agrees(v.buy(BigInt(sol)), (vt * (sol / (1 + fee))) / (vs + sol / (1 + fee)), 'buy');
    agrees(v.sell(50_000_000_000_000n), ((vs * 5e13) / (vt + 5e13)) * (1 - fee), 'sell');
    // A sale asking for more SOL than the curve's real reserves is not filled, and says why.
    const big = v.sell(200_000_000_000_000n);
    assert.equal(big.filled, false);
  });
});

/** A concentrated swap crossing one initialized tick, by hand: B in (price up) or A in (price down). */
function byHandCl(
  L: number,
  s0: number,
  crossTick: number,
  net: number,
  amountIn: number,
  fee: number,
  up: boolean,
) {
  const sc = 1.0001 ** (crossTick / 2);
  const inNet = amountIn * (1 - fee);
  if (up) {
    const d1 = L * (sc - s0);
    assert.ok(inNet > d1, 'the trade crosses the tick');
    const out1 = L * (1 / s0 - 1 / sc);
    const L2 = L + net;
    const s2 = sc + (inNet - d1) / L2;
    return out1 + L2 * (1 / sc - 1 / s2);
  }
  const d1 = L * (1 / sc - 1 / s0);
  assert.ok(inNet > d1, 'the trade crosses the tick');
  const out1 = L * (s0 - sc);
  const L2 = L - net;
  const s2 = 1 / (1 / sc + (inNet - d1) / L2);
  return out1 + L2 * (sc - s2);
}

describe('concentrated liquidity by hand: a swap that crosses a tick or a bin', () => {
  const CLMM_CONFIG = address('9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x');

  it('Raydium CLMM (the real pool AcPS8Srz…, at tick spacing 60): a buy crossing an initialized tick above the price, a sale one below', () => {
    const real = dump('raydium-clmm-pool-AcPS8Srz.json');
    // Its own spacing (1) puts every array read within 1 % of the price: at 60 a trade can move it far
    // enough that the liquidity after the tick matters. Its AmmConfig is the one written here.
    const d = Uint8Array.from(real.data);
    dv(d).setUint16(235, 60, true);
    d.set(addressBytes(CLMM_CONFIG), 9);
    const pool = { ...real, data: d };
    const mintA = getAddr(d, 73);
    const tick = dv(d).getInt32(269, true);
    const L = u128(d, 237);
    const s0 = u128(d, 253) / Q64;
    const up = Math.floor((tick + 600) / 60) * 60;
    const down = Math.floor((tick - 600) / 60) * 60;
    // A position of 0.8 L between the two ticks: either crossing leaves 0.2 L.
    const net = Math.round(0.8 * L);
    const config = raw(CLMM_CONFIG, RAYDIUM_CLMM_PROGRAM, clmmConfig(2_500));
    const accounts = map([pool, config]);
    for (const a of clmmArrays(pool.address, tick, 60)) {
      const ticks = [
        { index: down, liquidityNet: BigInt(net), liquidityGross: BigInt(net) },
        { index: up, liquidityNet: -BigInt(net), liquidityGross: BigInt(net) },
      ].filter((t) => t.index >= a.first && t.index < a.first + a.span);
      accounts.set(
        a.address,
        raw(a.address, RAYDIUM_CLMM_PROGRAM, encodeClmmTickArray(pool.address, a.first, 60, ticks)),
      );
    }
    const v = quoted(venueOf(marketOf(pool, mintA)!, accounts, LATER));
    const fee = dv(config.data).getUint32(47, true) / 1e6;
    const L2 = L - net;
    const sUp = 1.0001 ** (up / 2);
    const sDown = 1.0001 ** (down / 2);
    // B in: to the tick, then √P 10 % further on 0.2 L.
    const bIn = Math.round((L * (sUp - s0) + L2 * 0.1 * sUp) / (1 - fee));
    agrees(v.buy(BigInt(bIn)), byHandCl(L, s0, up, -net, bIn, fee, true), 'buy (B in, crossing up)');
    // A in: to the tick, then 1/√P 10 % further on 0.2 L.
    const aIn = Math.round((L * (1 / sDown - 1 / s0) + (L2 * 0.1) / sDown) / (1 - fee));
    agrees(v.sell(BigInt(aIn)), byHandCl(L, s0, down, net, aIn, fee, false), 'sell (A in, crossing down)');
  });

  it('Orca Whirlpool: a buy crossing an initialized tick above the price', () => {
    const [mint, pool, vaultA, vaultB] = [addr(0), addr(1), addr(2), addr(3)];
    const tick = -6932;
    const sqrt = BigInt(Math.floor(Math.sqrt(0.5) * Q64));
    const data = encodeWhirlpool({
      config: addr(4),
      bump: 255,
      tickSpacing: 64,
      liquidity: 20_000_000_000n,
      sqrtPriceX64: sqrt,
      mintA: mint,
      vaultA,
      mintB: WSOL_MINT,
      vaultB,
      tickCurrent: tick,
    });
    const account = raw(pool, ORCA_WHIRLPOOL_PROGRAM, data);
    const accounts = map([account]);
    const cross = -6400;
    const ticks = [{ index: cross, liquidityNet: -15_000_000_000n, liquidityGross: 15_000_000_000n }];
    for (const a of whirlpoolArrays(pool, tick, 64)) {
      const inside = ticks.filter((t) => t.index >= a.first && t.index < a.first + a.span);
      accounts.set(
        a.address,
        raw(a.address, ORCA_WHIRLPOOL_PROGRAM, encodeWhirlpoolTickArray(pool, a.first, 64, inside)),
      );
    }
    const v = quoted(venueOf(marketOf(account, mint)!, accounts, LATER));
    const L = u128(data, 49);
    const s0 = u128(data, 65) / Q64;
    const fee = dv(data).getUint16(45, true) / 1e6;
    const bIn = Math.round((1.5 * L * (1.0001 ** (cross / 2) - s0)) / (1 - fee));
    agrees(v.buy(BigInt(bIn)), byHandCl(L, s0, cross, -15e9, bIn, fee, true), 'buy crossing −6 400');
  });

  it('Meteora DLMM (the real pair 5rCf1DM8…): a buy that empties the active bin and goes on into the next', () => {
    const pair = dump('meteora-dlmm-lbpair-5rCf1DM8.json');
    const d = pair.data;
    const active = dv(d).getInt32(76, true);
    const step = dv(d).getUint16(80, true);
    const mintX = getAddr(d, 88);
    const x0 = 1_000_000_000n;
    const accounts = map([pair]);
    for (const a of dlmmArrays(pair.address, active)) {
      const bins = Array.from({ length: 70 }, (_, i) => a.first + i)
        .filter((id) => id >= active && id <= active + 5)
        .map((id) => ({
          id,
          amountX: id === active ? x0 : 2_000_000_000n,
          amountY: id === active ? 500_000_000n : 0n,
        }));
      accounts.set(
        a.address,
        raw(a.address, METEORA_DLMM_PROGRAM, encodeBinArray(pair.address, Math.floor(a.first / 70), bins)),
      );
    }
    const v = quoted(venueOf(marketOf(pair, mintX)!, accounts, LATER));
    // Fee: base_factor × bin_step × 10 × 10^power + ⌈(volatility_accumulator × bin_step)² × variable_fee_control / 1e11⌉, over 1e9.
    const base = dv(d).getUint16(8, true) * step * 10 * 10 ** d[34]!;
    const va = dv(d).getUint32(40, true) * step;
    const fee = (base + Math.ceil((va * va * dv(d).getUint32(16, true)) / 1e11)) / 1e9;
    const p0 = (1 + step / 10_000) ** active;
    const p1 = (1 + step / 10_000) ** (active + 1);
    const yIn = Math.round((Number(x0) * p0 + 1_000_000_000 * p1) / (1 - fee));
    const expected = Number(x0) + (yIn * (1 - fee) - Number(x0) * p0) / p1;
    agrees(v.buy(BigInt(yIn)), expected, 'buy (Y in) across two bins');
  });
});

describe('hostile pool bytes: a reason, never an error or a stall', () => {
  const pool = addr(1);
  const whirlpool = (
    liquidity: bigint,
    tickCurrent: number,
    sqrt = BigInt(Math.floor(Math.sqrt(0.5) * Q64)),
  ) =>
    raw(
      pool,
      ORCA_WHIRLPOOL_PROGRAM,
      encodeWhirlpool({
        config: addr(4),
        bump: 255,
        tickSpacing: 64,
        liquidity,
        sqrtPriceX64: sqrt,
        mintA: addr(0),
        vaultA: addr(2),
        mintB: WSOL_MINT,
        vaultB: addr(3),
        tickCurrent,
      }),
    );
  const withArrays = (account: RawAccount, tick: number, bytes: (first: number, i: number) => Uint8Array) => {
    const accounts = map([account]);
    whirlpoolArrays(pool, tick, 64).forEach((a, i) => {
      accounts.set(a.address, raw(a.address, ORCA_WHIRLPOOL_PROGRAM, bytes(a.first, i)));
    });
    return accounts;
  };

  it('a tick array that does not parse: at the price, the pool is not quoted; beside it, the walk stops there and says so', () => {
    const account = whirlpool(20_000_000_000n, -6932);
    const garbage = new Uint8Array(200).fill(7);
    const middle = venueOf(
      marketOf(account, addr(0))!,
      withArrays(account, -6932, (first, i) =>
        i === 1 ? garbage : encodeWhirlpoolTickArray(pool, first, 64, []),
      ),
      LATER,
    );
    assert.match((middle as Unquotable).why, /tick array/);
    const side = quoted(
      venueOf(
        marketOf(account, addr(0))!,
        withArrays(account, -6932, (first, i) =>
          i === 2 ? garbage : encodeWhirlpoolTickArray(pool, first, 64, []),
        ),
        LATER,
      ),
    );
    const leg = side.buy(10n ** 12n);
    assert.equal(leg.filled, false);
    assert.match(leg.filled ? '' : leg.why, /past the ticks read/);
  });

  it('a tick taking more liquidity than there is, u128 liquidity, a tick no pool holds, a zero price: no throw', () => {
    const account = whirlpool(1_000n, -6932);
    const drain = withArrays(account, -6932, (first, i) =>
      encodeWhirlpoolTickArray(
        pool,
        first,
        64,
        i === 1 ? [{ index: -6400, liquidityNet: -(10n ** 30n), liquidityGross: 1n }] : [],
      ),
    );
    const leg = quoted(venueOf(marketOf(account, addr(0))!, drain, LATER)).buy(10n ** 15n);
    assert.equal(leg.filled, false);
    const huge = whirlpool(2n ** 128n - 1n, -6932);
    const big = quoted(
      venueOf(
        marketOf(huge, addr(0))!,
        withArrays(huge, -6932, (f) => encodeWhirlpoolTickArray(pool, f, 64, [])),
        LATER,
      ),
    );
    assert.ok(big.buy(2n ** 64n - 1n).out >= 0n);
    assert.ok(big.sell(2n ** 64n - 1n).out >= 0n);
    const farTick = whirlpool(1_000n, 2_000_000_000);
    assert.match((venueOf(marketOf(farTick, addr(0))!, map([farTick]), LATER) as Unquotable).why, /tick/);
    const zero = whirlpool(1_000n, 0, 0n);
    const zeroQuote = venueOf(
      marketOf(zero, addr(0))!,
      withArrays(zero, 0, (f) => encodeWhirlpoolTickArray(pool, f, 64, [])),
      LATER,
    );
    assert.ok('why' in zeroQuote || !zeroQuote.buy(1_000n).filled || zeroQuote.buy(1_000n).out >= 0n);
  });
});
