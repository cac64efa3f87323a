/**
 * Pure: a market read by the scan → a venue that quotes a buy and a sale at any size, by its pool
 * family's own math (constant product, pump.fun's curve, ticks, bins), or why it cannot be quoted.
 * Constant-product reserves are what belongs to the liquidity providers (fees and PnL held in the
 * vaults for others are left out); no venue pays out more than its vault holds.
 */
import type { Address } from '@solana/kit';
import { decodeDammV1Pool } from '../../../solana/decoders/meteora-damm-v1.js';
import { decodeBondingCurve } from '../../../solana/decoders/pump-bonding-curve.js';
import { decodeRaydiumAmmV4 } from '../../../solana/decoders/raydium-amm-v4.js';
import { decodeRaydiumCpmmPool } from '../../../solana/decoders/raydium-cpmm.js';
import { PUMPSWAP_GLOBAL_CONFIG } from '../../../solana/programs.js';
import type { RawAccount } from '../../token-facts/model.js';
import type { Market } from '../markets.js';
import { reserveOf, tokenBalance } from '../reserves.js';
import { curveBuy, curveSell } from './bonding-curve.js';
import { constantProductLeg } from './constant-product.js';
import { cpmmFee, PUMP_CREATOR_FEE_BPS, PUMP_PROTOCOL_FEE_BPS, pumpSwapFee } from './fees.js';
import {
  type Fee,
  feeFraction,
  feeUnusable,
  type Leg,
  partial,
  type Unquotable,
  type Venue,
} from './model.js';
import { clmmVenue, dammV2Venue, dlmmVenue, whirlpoolVenue } from './venues-cl.js';

type Accounts = ReadonlyMap<Address, RawAccount | null>;

const less = (a: bigint | null, b: bigint) => (a === null ? null : a > b ? a - b : 0n);

function cpVenue(m: Market, base: bigint | null, quote: bigint | null, fee: Fee | null): Venue | Unquotable {
  if (base === null || quote === null) return { market: m, why: 'its reserves could not be read' };
  if (fee === null || feeUnusable(fee)) return { market: m, why: 'its fee could not be read' };
  if (base <= 0n || quote <= 0n) return { market: m, why: 'the pool holds nothing on one side' };
  return {
    market: m,
    spot: Number(quote) / Number(base),
    fee: feeFraction(fee),
    buy: (quoteIn) => constantProductLeg(quote, base, quoteIn, fee),
    sell: (baseIn) => constantProductLeg(base, quote, baseIn, fee),
  };
}

/** The pool's own reserves, less what its bytes say is held for others (`held` per side, A then B). */
function cpReserves(m: Market, accounts: Accounts, now: number, vaultA: Address, held: [bigint, bigint]) {
  const [baseHeld, quoteHeld] = m.baseVault === vaultA ? held : [held[1], held[0]];
  return {
    base: less(reserveOf(m, 'base', accounts, now), baseHeld),
    quote: less(reserveOf(m, 'quote', accounts, now), quoteHeld),
  };
}

function constantProductVenue(
  m: Market,
  pool: RawAccount,
  accounts: Accounts,
  now: number,
): Venue | Unquotable {
  const plain = () => ({
    base: reserveOf(m, 'base', accounts, now),
    quote: reserveOf(m, 'quote', accounts, now),
  });
  switch (m.dex) {
    case 'pumpswap': {
      const r = plain();
      return cpVenue(m, r.base, r.quote, pumpSwapFee(accounts.get(PUMPSWAP_GLOBAL_CONFIG)));
    }
    case 'raydium-amm-v4': {
      const p = decodeRaydiumAmmV4(pool.data);
      if (!p.ok) return { market: m, why: p.detail };
      const r = cpReserves(m, accounts, now, p.value.vaultA, [p.value.pnlA, p.value.pnlB]);
      return cpVenue(m, r.base, r.quote, { num: p.value.swapFeeNumerator, den: p.value.swapFeeDenominator });
    }
    case 'raydium-cpmm': {
      const p = decodeRaydiumCpmmPool(pool.data);
      if (!p.ok) return { market: m, why: p.detail };
      const r = cpReserves(m, accounts, now, p.value.vaultA, [p.value.feesA, p.value.feesB]);
      return cpVenue(m, r.base, r.quote, cpmmFee(p.value.ammConfig));
    }
    default: {
      const p = decodeDammV1Pool(pool.data);
      if (!p.ok) return { market: m, why: p.detail };
      if (p.value.curveType !== 0)
        return { market: m, why: 'its curve is stable-swap, not constant product' };
      const r = plain();
      return cpVenue(m, r.base, r.quote, {
        num: p.value.tradeFeeNumerator,
        den: p.value.tradeFeeDenominator,
      });
    }
  }
}

function curveVenue(m: Market, account: RawAccount): Venue | Unquotable {
  const d = decodeBondingCurve(account.data);
  if (!d.ok) return { market: m, why: d.detail };
  const c = d.value;
  const curve = {
    virtualTokens: c.virtualTokenReserves,
    virtualQuote: c.virtualQuoteReserves,
    realTokens: c.realTokenReserves,
    realQuote: c.realQuoteReserves,
    feeBps: PUMP_PROTOCOL_FEE_BPS + (c.creatorFeeBps ?? PUMP_CREATOR_FEE_BPS),
  };
  if (curve.virtualTokens <= 0n || curve.virtualQuote <= 0n)
    return { market: m, why: 'the curve has no reserves' };
  return {
    market: m,
    spot: Number(curve.virtualQuote) / Number(curve.virtualTokens),
    fee: Number(curve.feeBps) / 10_000,
    buy: (quoteIn) => curveBuy(curve, quoteIn),
    sell: (baseIn) => curveSell(curve, baseIn),
  };
}

/** No leg pays out more than the vault it pays from holds (pool bytes are untrusted). */
function capped(v: Venue, accounts: Accounts): Venue {
  if (v.market.dynamicVaults || v.market.dex === 'pumpfun-curve') return v;
  const cap = (leg: Leg, vault: Address): Leg => {
    const held = tokenBalance(accounts.get(vault));
    return held !== null && leg.out > held
      ? partial(0n, held, 'the quote pays out more than the pool’s vault holds')
      : leg;
  };
  return {
    ...v,
    buy: (q) => cap(v.buy(q), v.market.baseVault),
    sell: (b) => cap(v.sell(b), v.market.quoteVault),
  };
}

function uncapped(m: Market, accounts: Accounts, now: number): Venue | Unquotable {
  const pool = accounts.get(m.pool);
  if (!pool) return { market: m, why: 'its pool account was not read' };
  switch (m.dex) {
    case 'pumpfun-curve':
      return curveVenue(m, pool);
    case 'orca-whirlpool':
      return whirlpoolVenue(m, pool, accounts);
    case 'raydium-clmm':
      return clmmVenue(m, pool, accounts);
    case 'meteora-dlmm':
      return dlmmVenue(m, pool, accounts);
    case 'meteora-damm-v2':
      return dammV2Venue(m, pool);
    default:
      return constantProductVenue(m, pool, accounts, now);
  }
}

export function venueOf(m: Market, accounts: Accounts, now: number): Venue | Unquotable {
  const v = uncapped(m, accounts, now);
  if ('why' in v) return v;
  if (!Number.isFinite(v.spot) || v.spot <= 0) return { market: m, why: 'its price is zero or out of range' };
  return capped(v, accounts);
}
