/**
 * The liquidity flags of assessToken, at their boundaries, on pool, vault, LP mint and LP holder
 * accounts in their real layouts (PumpSwap pool bytes, SPL token accounts and mints), as the
 * liquidity round would have read them.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  type Address,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
} from '@solana/kit';
import { encodePumpSwapPool } from '../../../src/sandbox/scenarios/builders/layouts.js';
import {
  encodeLockEscrow,
  encodeVestingEscrow,
} from '../../../src/sandbox/scenarios/builders/locker-layouts.js';
import { encodePriceUpdateV2 } from '../../../src/sandbox/scenarios/builders/trade-layouts.js';
import type { Discovery } from '../../../src/scans/liquidity/discover.js';
import type { LiquidityFacts } from '../../../src/scans/liquidity/facts.js';
import { LIQUIDITY_FLAGS } from '../../../src/scans/liquidity/flags.js';
import { assessToken } from '../../../src/scans/token/assess.js';
import type { LargestAccount, RawAccount, TokenFacts } from '../../../src/scans/token-facts/model.js';
import {
  PYTH_RECEIVER_PROGRAM,
  PYTH_SOL_USD_ACCOUNT,
  PYTH_SOL_USD_FEED_ID,
} from '../../../src/solana/decoders/pyth-price-update.js';
import {
  INCINERATOR,
  JUPITER_LOCK_PROGRAM,
  METEORA_DAMM_V1_PROGRAM,
  PUMPSWAP_PROGRAM,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_CP_LOCK_AUTHORITY,
  RAYDIUM_LP_LOCK_PROGRAM,
  TOKEN_PROGRAM,
  USDC_MINT,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';
import { holderAccounts, mintBytes, raw, SUPPLY, splTokenAccount } from '../../helpers/token-accounts.js';
import { loadAccount } from '../../solana/fixtures.js';

const NOW = 1_800_000_000;
const LP_ISSUED = 1_000_000n;

interface PoolSpec {
  /** Tokens in the pool's base vault, of SUPPLY. */
  base?: bigint;
  /** Quote units in the pool's quote vault. */
  quote?: bigint;
  quoteMint?: Address;
  /** The LP mint's supply (the pool counts LP_ISSUED): the rest was burned. */
  lpMintSupply?: bigint;
  /** The LP holders: owner and LP units. */
  lpHolders?: { owner: Address; amount: bigint }[];
  baseVault?: Address;
  /** Other accounts read (an LP holder's owner account: a locker's state). */
  extra?: RawAccount[];
}

describe('liquidity flags of assessToken', () => {
  const flags = flagCoverage(LIQUIDITY_FLAGS);
  let keys: Address[];
  let mint: Address;
  let pool: Address;
  let wallet: Address;
  let locker: Address;
  let token: (holders?: { owner: Address; amount: bigint }[]) => TokenFacts;
  let liquidity: (spec?: PoolSpec) => LiquidityFacts;

  before(async () => {
    keys = await Promise.all(Array.from({ length: 40 }, async () => (await generateKeyPairSigner()).address));
    [mint, wallet] = keys as [Address, Address];
    [pool] = await getProgramDerivedAddress({ programAddress: PUMPSWAP_PROGRAM, seeds: ['test-pool'] });
    [locker] = await getProgramDerivedAddress({ programAddress: PUMPSWAP_PROGRAM, seeds: ['test-locker'] });
    token = (holders = keys.slice(10, 30).map((owner) => ({ owner, amount: SUPPLY / 100n }))) => {
      const { owner, data } = mintBytes({});
      return {
        mint,
        mintAccount: raw(mint, owner, data),
        metadataAddress: keys[2]!,
        metadataAccount: null,
        extraAccounts: [],
        epoch: 800n,
        largestError: null,
        nowSeconds: NOW,
        history: {
          count: 40,
          oldest: { signature: 'creation', blockTime: NOW - 100 * 86_400 },
          truncated: false,
        },
        ...holderAccounts(mint, owner, holders, keys.slice(20, 40)),
      };
    };
    liquidity = (spec = {}) => {
      const [defaultBase, quoteVault, lpMint] = keys.slice(3, 6) as [Address, Address, Address];
      const baseVault = spec.baseVault ?? defaultBase;
      const quoteMint = spec.quoteMint ?? WSOL_MINT;
      const poolData = encodePumpSwapPool({
        poolBump: 255,
        index: 0,
        creator: keys[6]!,
        baseMint: mint,
        quoteMint,
        lpMint,
        poolBaseTokenAccount: baseVault,
        poolQuoteTokenAccount: quoteVault,
        lpSupply: LP_ISSUED,
        coinCreator: keys[6]!,
      });
      const accounts = new Map<Address, RawAccount | null>([
        [pool, raw(pool, PUMPSWAP_PROGRAM, poolData)],
        [baseVault, splTokenAccount(baseVault, mint, pool, spec.base ?? SUPPLY / 5n)],
        [quoteVault, splTokenAccount(quoteVault, quoteMint, pool, spec.quote ?? 85n * 10n ** 9n)],
        [lpMint, raw(lpMint, TOKEN_PROGRAM, mintBytes({ supply: spec.lpMintSupply ?? 0n }).data)],
      ]);
      const largest: LargestAccount[] = [];
      (spec.lpHolders ?? []).forEach((h, i) => {
        const address = keys[7 + i]!;
        largest.push({ address, amount: h.amount });
        accounts.set(address, splTokenAccount(address, lpMint, h.owner, h.amount));
      });
      for (const account of spec.extra ?? []) accounts.set(account.address, account);
      const discovery: Discovery = {
        mint,
        candidates: [pool],
        speculative: [],
        speculativeLargest: [],
        unlocated: [],
      };
      return {
        discovery,
        reads: { accounts, largest: new Map([[lpMint, spec.lpHolders ? largest : null]]) },
        rounds: 1,
        errors: [],
        incomplete: false,
      };
    };
  });

  const none_: () => LiquidityFacts = () => ({
    discovery: { mint, candidates: [pool], speculative: [], speculativeLargest: [], unlocated: [] },
    reads: { accounts: new Map([[pool, null]]), largest: new Map() },
    rounds: 1,
    errors: [],
    incomplete: false,
  });

  it('MARKET_NONE: no pool among the candidates; not with a pool, a pool seen only by its vault, or a failed read', () => {
    const none = assessToken(token(), undefined, none_());
    flags.raised(none, 'MARKET_NONE', { candidates_checked: 1 });
    // Only the venues the scan can find are named as checked.
    const checked = (none.evidence as { flags: { MARKET_NONE: { dexes_checked: string[] } } }).flags
      .MARKET_NONE.dexes_checked;
    assert.deepEqual(checked, [
      'PumpSwap',
      'Raydium AMM v4',
      'Raydium CPMM',
      'Raydium CLMM',
      'Meteora DLMM',
      'Meteora DAMM v1',
      'Meteora DAMM v2',
      'Orca Whirlpool',
      'pump.fun bonding curve',
    ]);
    flags.notRaised(assessToken(token(), undefined, liquidity()), 'MARKET_NONE');
    const seen = none_();
    const vaultOnly: LiquidityFacts = {
      ...seen,
      discovery: {
        ...seen.discovery,
        unlocated: [
          { dex: 'raydium-amm-v4', tokenAccount: keys[30]!, owner: RAYDIUM_AMM_V4_AUTHORITY, amount: 1n },
        ],
      },
    };
    flags.notRaised(assessToken(token(), undefined, vaultOnly), 'MARKET_NONE');
    flags.notRaised(
      assessToken(token(), undefined, { ...none_(), errors: ['getMultipleAccounts: timeout'] }),
      'MARKET_NONE',
    );
    // Without liquidity facts (a caller that did not read pools) nothing is said about markets.
    flags.notRaised(assessToken(token()), 'MARKET_NONE');
  });

  it('LIQUIDITY_THIN: a pool holding 1.99 % of the market value; not 2 %, nor a pool with 5,000 SOL', () => {
    // Constant product: depth / (price × supply) = base reserve / supply.
    const thin = assessToken(token(), undefined, liquidity({ base: (SUPPLY * 199n) / 10_000n }));
    const hit = flags.raised(thin, 'LIQUIDITY_THIN', { liquidity_ratio: 0.0199, pools: [pool] });
    assert.deepEqual(hit.quote_depth, [{ pool, SOL: 85 }]);
    flags.notRaised(
      assessToken(token(), undefined, liquidity({ base: (SUPPLY * 2n) / 100n })),
      'LIQUIDITY_THIN',
    );
    const deep = liquidity({ base: SUPPLY / 1000n, quote: 5_000n * 10n ** 9n });
    flags.notRaised(assessToken(token(), undefined, deep), 'LIQUIDITY_THIN');
    const usdcThin = liquidity({ base: SUPPLY / 1000n, quote: 999_999n * 10n ** 6n, quoteMint: USDC_MINT });
    flags.raised(assessToken(token(), undefined, usdcThin), 'LIQUIDITY_THIN', { liquidity_ratio: 0.001 });
  });

  it('LP_PULLABLE: wallets with 10 % of the LP; not 9.99 %, nor LP held by a program address', () => {
    const split = (walletShare: bigint) =>
      liquidity({
        lpMintSupply: LP_ISSUED,
        lpHolders: [
          { owner: wallet, amount: walletShare },
          { owner: locker, amount: LP_ISSUED - walletShare },
        ],
      });
    flags.raised(assessToken(token(), undefined, split(LP_ISSUED / 10n)), 'LP_PULLABLE', {
      pool,
      dex: 'PumpSwap',
      pullable_share: 0.1,
      wallets: [{ owner: wallet, token_account: keys[7], share: 0.1 }],
    });
    flags.notRaised(assessToken(token(), undefined, split((LP_ISSUED * 999n) / 10_000n)), 'LP_PULLABLE');
    flags.notRaised(assessToken(token(), undefined, split(0n)), 'LP_PULLABLE');
  });

  it('LP_BURNED_OR_LOCKED: 90 % burned or locked (info, no score); not 89.9 %', () => {
    // 60 % burned (the mint's supply fell to 40 %), 30 % in Raydium's LP lock, 10 % in a wallet.
    const safe = assessToken(
      token(),
      undefined,
      liquidity({
        lpMintSupply: (LP_ISSUED * 4n) / 10n,
        lpHolders: [
          { owner: RAYDIUM_CP_LOCK_AUTHORITY, amount: (LP_ISSUED * 3n) / 10n },
          { owner: wallet, amount: LP_ISSUED / 10n },
        ],
      }),
    );
    flags.raised(safe, 'LP_BURNED_OR_LOCKED', { burned_share: 0.6, locked_share: 0.3 });
    flags.raised(safe, 'LP_PULLABLE', { pullable_share: 0.1 });
    const burnedAll = assessToken(token(), undefined, liquidity({ lpMintSupply: 0n }));
    flags.raised(burnedAll, 'LP_BURNED_OR_LOCKED', { burned_share: 1, locked_share: 0 });
    assert.equal(
      burnedAll.risk_score,
      assessToken(token()).risk_score,
      'a burned LP lowers nothing, adds nothing',
    );
    const incinerated = liquidity({
      lpMintSupply: LP_ISSUED,
      lpHolders: [{ owner: INCINERATOR, amount: LP_ISSUED }],
    });
    flags.raised(assessToken(token(), undefined, incinerated), 'LP_BURNED_OR_LOCKED', { burned_share: 1 });
    const short = liquidity({
      lpMintSupply: LP_ISSUED,
      lpHolders: [
        { owner: RAYDIUM_CP_LOCK_AUTHORITY, amount: (LP_ISSUED * 899n) / 1000n },
        { owner: wallet, amount: (LP_ISSUED * 101n) / 1000n },
      ],
    });
    flags.notRaised(assessToken(token(), undefined, short), 'LP_BURNED_OR_LOCKED');
    // LP in Raydium's LP lock is named.
    const raydiumLocked = liquidity({
      lpMintSupply: LP_ISSUED,
      lpHolders: [{ owner: RAYDIUM_CP_LOCK_AUTHORITY, amount: LP_ISSUED }],
    });
    flags.raised(assessToken(token(), undefined, raydiumLocked), 'LP_BURNED_OR_LOCKED', {
      burned_share: 0,
      locked_share: 1,
      lockers: [{ name: 'Raydium LP lock (Burn & Earn)', program: RAYDIUM_LP_LOCK_PROGRAM, share: 1 }],
    });
  });

  it('LP in a Jupiter Lock escrow is locked, named, dated; pullable once it releases within 7 days or can be cancelled', async () => {
    const [escrow] = await getProgramDerivedAddress({
      programAddress: JUPITER_LOCK_PROGRAM,
      seeds: ['escrow', getAddressEncoder().encode(keys[31]!)],
    });
    const lpMint = keys[5]!;
    const jupiter = (cliffTime: number, cancelMode = 0, recipient = keys[32]!) =>
      liquidity({
        lpMintSupply: LP_ISSUED,
        lpHolders: [{ owner: escrow, amount: LP_ISSUED }],
        extra: [
          raw(
            escrow,
            JUPITER_LOCK_PROGRAM,
            encodeVestingEscrow({
              recipient,
              tokenMint: lpMint,
              creator: keys[33]!,
              base: keys[31]!,
              escrowBump: 255,
              cancelMode,
              cliffTime: BigInt(cliffTime),
              frequency: 0n,
              cliffUnlockAmount: LP_ISSUED,
              amountPerPeriod: 0n,
              numberOfPeriod: 0n,
            }),
          ),
        ],
      });
    const week = 7 * 86_400;
    const locked = assessToken(token(), undefined, jupiter(NOW + week + 1));
    const unlocksAt = new Date((NOW + week + 1) * 1000).toISOString();
    flags.raised(locked, 'LP_BURNED_OR_LOCKED', {
      locked_share: 1,
      lockers: [
        {
          name: 'Jupiter Lock',
          program: JUPITER_LOCK_PROGRAM,
          share: 1,
          token_account: keys[7],
          unlocks_at: unlocksAt,
          fully_unlocks_at: unlocksAt,
        },
      ],
    });
    assert.match(locked.reasoning.join(' '), /in Jupiter Lock/);
    flags.notRaised(locked, 'LP_PULLABLE');
    // Releasing within a week (or already released): the recipient can pull it.
    const soon = assessToken(token(), undefined, jupiter(NOW + week));
    flags.notRaised(soon, 'LP_BURNED_OR_LOCKED');
    flags.raised(soon, 'LP_PULLABLE', {
      pullable_share: 1,
      wallets: [
        {
          owner: keys[32],
          token_account: keys[7],
          share: 1,
          via: 'Jupiter Lock',
          why: 'its schedule releases it to the recipient within 7 days',
        },
      ],
    });
    // Released within a week to a program address (a multisig vault): held under that program, as
    // any LP there is, not a single key's to pull.
    const toVault = assessToken(token(), undefined, jupiter(NOW + week, 0, escrow));
    flags.notRaised(toVault, 'LP_PULLABLE');
    flags.notRaised(toVault, 'LP_BURNED_OR_LOCKED');
    const lp = (toVault.evidence as any).markets[0].lp;
    assert.equal(lp.program_share, 1);
    assert.deepEqual(lp.programs, [
      {
        owner: escrow,
        program: null,
        token_account: keys[7],
        share: 1,
        why: 'its schedule releases it to the recipient within 7 days (Jupiter Lock), to a program address, not a single key',
      },
    ]);
    // A cliff past any date (valid bytes, a u64): locked, its date shown as null rather than a crash.
    const forever = assessToken(token(), undefined, jupiter(Number.MAX_SAFE_INTEGER));
    flags.raised(forever, 'LP_BURNED_OR_LOCKED', {
      lockers: [
        {
          name: 'Jupiter Lock',
          program: JUPITER_LOCK_PROGRAM,
          share: 1,
          token_account: keys[7],
          unlocks_at: null,
          fully_unlocks_at: null,
        },
      ],
    });
    // A lock its creator may cancel is no lock: a cancel returns what is still locked to the creator.
    const cancellable = assessToken(token(), undefined, jupiter(NOW + 365 * 86_400, 1));
    flags.notRaised(cancellable, 'LP_BURNED_OR_LOCKED');
    flags.raised(cancellable, 'LP_PULLABLE', {
      wallets: [
        {
          owner: keys[33],
          token_account: keys[7],
          share: 1,
          via: 'Jupiter Lock',
          why: 'the escrow can be cancelled, which sends the LP still locked to its creator',
        },
      ],
    });
  });

  it('LP in a Meteora DAMM v1 lock escrow is locked for good; LP under an unknown program is neither locked nor pullable', () => {
    const holder = keys[7]!;
    const lockEscrow = (escrowVault: Address) =>
      liquidity({
        lpMintSupply: LP_ISSUED,
        lpHolders: [{ owner: locker, amount: LP_ISSUED }],
        extra: [
          raw(
            locker,
            METEORA_DAMM_V1_PROGRAM,
            encodeLockEscrow({ pool, owner: wallet, escrowVault, bump: 255, totalLockedAmount: LP_ISSUED }),
          ),
        ],
      });
    flags.raised(assessToken(token(), undefined, lockEscrow(holder)), 'LP_BURNED_OR_LOCKED', {
      locked_share: 1,
      lockers: [{ name: 'Meteora DAMM v1 lock escrow', program: METEORA_DAMM_V1_PROGRAM, share: 1 }],
    });
    // A lock escrow naming another vault does not vouch for this one.
    const other = assessToken(token(), undefined, lockEscrow(keys[30]!));
    flags.notRaised(other, 'LP_BURNED_OR_LOCKED');
    // A PDA of any other program (a wallet-controlled vault program, say): shown as program-held.
    const vault = liquidity({
      lpMintSupply: LP_ISSUED,
      lpHolders: [{ owner: locker, amount: LP_ISSUED }],
      extra: [raw(locker, PUMPSWAP_PROGRAM, new Uint8Array(64))],
    });
    const held = assessToken(token(), undefined, vault);
    flags.notRaised(held, 'LP_BURNED_OR_LOCKED'); // a program address is not a lock
    flags.notRaised(held, 'LP_PULLABLE'); // no key we can name holds it
    const lp = (held.evidence as { markets: { lp: Record<string, unknown> }[] }).markets[0]!.lp;
    assert.equal(lp.program_share, 1);
    assert.deepEqual(lp.programs, [
      {
        owner: locker,
        program: PUMPSWAP_PROGRAM,
        token_account: holder,
        share: 1,
        why: 'a program address of a program not known as a locker',
      },
    ]);
  });

  it('LIQUIDITY_UNAVAILABLE: a pool seen only by its vault, or a failed read; confidence drops, not the risk', () => {
    const seen = none_();
    const vaultOnly: LiquidityFacts = {
      ...seen,
      discovery: {
        ...seen.discovery,
        unlocated: [
          { dex: 'raydium-amm-v4', tokenAccount: keys[30]!, owner: RAYDIUM_AMM_V4_AUTHORITY, amount: 1n },
        ],
      },
    };
    flags.raised(assessToken(token(), undefined, vaultOnly), 'LIQUIDITY_UNAVAILABLE', { pools: [keys[30]] });
    const failed = assessToken(token(), undefined, { ...none_(), errors: ['getMultipleAccounts: timeout'] });
    flags.raised(failed, 'LIQUIDITY_UNAVAILABLE', { reason: 'getMultipleAccounts: timeout', pools: [] });
    const known = assessToken(token(), undefined, liquidity({ lpMintSupply: 0n }));
    flags.notRaised(known, 'LIQUIDITY_UNAVAILABLE');
    assert.ok(failed.confidence < known.confidence);
  });

  it('holder concentration sets the pool vault aside and names the pool it belongs to', () => {
    const others = keys.slice(10, 20).map((owner) => ({ owner, amount: SUPPLY / 100n }));
    const facts = token([{ owner: pool, amount: SUPPLY / 2n }, ...others]);
    const vault = facts.largest?.[0]?.address as Address;
    const result = assessToken(facts, undefined, liquidity({ baseVault: vault, base: SUPPLY / 2n }));
    const excluded = (result.evidence as { excluded: { token_account: string; why: string }[] }).excluded;
    assert.deepEqual(
      excluded.map((e) => [e.token_account, e.why]),
      [[vault, `pool vault: PumpSwap pool ${pool}`]],
    );
    assert.ok(!result.flags.includes('HOLDER_TOP1_HIGH'));
    // Without the pool read, the same vault is still set aside, by its off-curve owner.
    const unnamed = (assessToken(facts).evidence as { excluded: { why: string }[] }).excluded;
    assert.match(unnamed[0]!.why, /program-controlled/);
  });

  it('LP beyond the largest holders read is unknown, not spread over the ones read', () => {
    // Only a locker with half the LP is listed (the RPC lists the 20 largest): the other half is unknown.
    const partial = liquidity({
      lpMintSupply: LP_ISSUED,
      lpHolders: [{ owner: RAYDIUM_CP_LOCK_AUTHORITY, amount: LP_ISSUED / 2n }],
    });
    const result = assessToken(token(), undefined, partial);
    flags.notRaised(result, 'LP_BURNED_OR_LOCKED');
    const lp = (result.evidence as { markets: { lp: Record<string, unknown> }[] }).markets[0]!.lp;
    assert.deepEqual(lp, {
      burned_share: 0,
      locked_share: 0.5,
      wallet_share: 0,
      program_share: 0,
      unknown_share: 0.5,
      lockers: [{ name: 'Raydium LP lock (Burn & Earn)', program: RAYDIUM_LP_LOCK_PROGRAM, share: 0.5 }],
    });
  });

  // --- trade at the agent's size: a PumpSwap pool, its real GlobalConfig (0.25 %), SOL at $150 ----
  const pythSol = (price = 15_000_000_000n, exponent = -8) =>
    raw(
      PYTH_SOL_USD_ACCOUNT,
      PYTH_RECEIVER_PROGRAM,
      encodePriceUpdateV2({
        writeAuthority: keys[0]!,
        feedIdHex: PYTH_SOL_USD_FEED_ID,
        price,
        conf: 5_000_000n,
        exponent,
        publishTime: BigInt(NOW - 20),
        postedSlot: 7n,
      }),
    );
  const pumpConfig = () => {
    const d = loadAccount('pumpswap-global-config.json');
    return raw(d.address, d.owner, d.data);
  };
  /** A token whose PumpSwap pool holds `sol` SOL against a fifth of the supply, priced in dollars by Pyth. */
  const traded = (sol: number, t: TokenFacts = token(), price: RawAccount | null = pythSol()) =>
    assessToken(
      { ...t, solUsdAccount: price },
      undefined,
      liquidity({ quote: BigInt(Math.round(sol * 1e9)), extra: [pumpConfig()] }),
    );
  /** The same trade by hand: x·y = k, 0.25 % on the input, $1,000 = 6.667 SOL. */
  const byHand = (sol: number) => {
    const x = (1000 / 150) * 0.9975;
    const impact = 1 - (0.9975 * sol) / (sol + x);
    const tokens = Number(SUPPLY / 5n) * (x / (sol + x));
    const t = tokens * 0.9975;
    const back = (sol * t) / (Number(SUPPLY / 5n) + t);
    return { impact, roundTrip: 1 - back / (1000 / 150) };
  };

  it('TRADE_PRICE_IMPACT_HIGH: $1,000 moves the best pool 10 % or more (a 60 SOL pool); not a 63 SOL pool', () => {
    const hit = flags.raised(traded(60), 'TRADE_PRICE_IMPACT_HIGH', {
      usd: 1000,
      pool,
      dex: 'PumpSwap',
      exceeds_read_liquidity: false,
    });
    const expected = byHand(60).impact;
    assert.ok(
      Math.abs((hit.buy_price_impact as number) - expected) < 0.0005,
      `${hit.buy_price_impact} vs ${expected}`,
    );
    assert.ok(Math.abs((hit.sell_price_impact as number) - expected) < 0.0005);
    flags.notRaised(traded(63), 'TRADE_PRICE_IMPACT_HIGH');
    // The evidence quotes all three sizes, and names where the dollars came from.
    const evidence = traded(63).evidence as {
      trade: { usd: number; pool: string }[];
      trade_usd_prices: { SOL: Record<string, unknown> };
    };
    assert.deepEqual(
      evidence.trade.map((q) => [q.usd, q.pool]),
      [
        [100, pool],
        [1000, pool],
        [10000, pool],
      ],
    );
    assert.equal(evidence.trade_usd_prices.SOL.account, PYTH_SOL_USD_ACCOUNT);
    assert.equal(evidence.trade_usd_prices.SOL.usd, 150);
  });

  it('TRADE_ROUND_TRIP_LOSS_HIGH: buying $1,000 and selling it back loses 20 % or more (a 30 SOL pool); not a 63 SOL pool', () => {
    const hit = flags.raised(traded(30), 'TRADE_ROUND_TRIP_LOSS_HIGH', { usd: 1000, pool, dex: 'PumpSwap' });
    const expected = byHand(30).roundTrip;
    assert.ok(
      Math.abs((hit.round_trip_loss as number) - expected) < 0.0005,
      `${hit.round_trip_loss} vs ${expected}`,
    );
    flags.notRaised(traded(63), 'TRADE_ROUND_TRIP_LOSS_HIGH');
    // A Token-2022 transfer fee of 5 % is paid on the way in and on the way out: the same pool now loses more than 20 %.
    const taxed = token();
    const { owner, data } = mintBytes({
      extensions: [
        {
          __kind: 'TransferFeeConfig',
          transferFeeConfigAuthority: keys[1]!,
          withdrawWithheldAuthority: keys[1]!,
          withheldAmount: 0n,
          olderTransferFee: { epoch: 0n, maximumFee: 2n ** 63n, transferFeeBasisPoints: 500 },
          newerTransferFee: { epoch: 0n, maximumFee: 2n ** 63n, transferFeeBasisPoints: 500 },
        },
      ],
    });
    const withFee = { ...taxed, mintAccount: raw(mint, owner, data) };
    flags.raised(traded(63, withFee), 'TRADE_ROUND_TRIP_LOSS_HIGH', { usd: 1000, pool, dex: 'PumpSwap' });
  });

  it('no SOL/USD price read, or a price account that is not Pyth SOL/USD: no dollars guessed, no trade flag, and the evidence says why', () => {
    for (const price of [null, raw(PYTH_SOL_USD_ACCOUNT, TOKEN_PROGRAM, new Uint8Array(134)), pythSol(-5n)]) {
      const result = traded(30, token(), price);
      flags.notRaised(result, 'TRADE_PRICE_IMPACT_HIGH');
      flags.notRaised(result, 'TRADE_ROUND_TRIP_LOSS_HIGH');
      const evidence = result.evidence as {
        trade: { buy_price_impact: unknown; why: string }[];
        trade_usd_prices: { SOL: { why: string } };
      };
      assert.equal(evidence.trade[1]!.buy_price_impact, null);
      assert.match(evidence.trade[1]!.why, /dollar price/);
      assert.ok(evidence.trade_usd_prices.SOL.why.length > 0);
    }
    // A USDC pool needs no SOL price: USDC is taken at par.
    const usdc = assessToken(
      { ...token(), solUsdAccount: null },
      undefined,
      liquidity({ quote: 9_000_000_000n, quoteMint: USDC_MINT, extra: [pumpConfig()] }),
    );
    flags.raised(usdc, 'TRADE_PRICE_IMPACT_HIGH', { usd: 1000, pool, dex: 'PumpSwap' });
  });

  it('absurd pool bytes (an empty side, u64-sized reserves, no fee config) give reasons, never an error', () => {
    const huge = assessToken(
      { ...token(), solUsdAccount: pythSol() },
      undefined,
      liquidity({ base: 2n ** 64n - 1n, quote: 2n ** 64n - 1n, extra: [pumpConfig()] }),
    );
    assert.ok(Array.isArray((huge.evidence as { trade: unknown[] }).trade));
    const empty = assessToken(
      { ...token(), solUsdAccount: pythSol() },
      undefined,
      liquidity({ quote: 0n, extra: [pumpConfig()] }),
    );
    const notQuoted = (empty.evidence as { trade_pools_not_quoted: { why: string }[] })
      .trade_pools_not_quoted;
    assert.match(notQuoted[0]!.why, /nothing on one side/);
    const noConfig = assessToken(
      { ...token(), solUsdAccount: pythSol() },
      undefined,
      liquidity({ quote: 1n }),
    );
    assert.match(
      (noConfig.evidence as { trade_pools_not_quoted: { why: string }[] }).trade_pools_not_quoted[0]!.why,
      /fee/,
    );
  });

  it('every liquidity flag has a raising test above', () => {
    flags.assertEveryFlagRaised();
  });

  it('a quote vault of another mint than SOL or USDC gives no depth, and no thin flag', () => {
    const other = liquidity({ base: SUPPLY / 1000n, quoteMint: keys[8]! });
    flags.notRaised(assessToken(token(), undefined, other), 'LIQUIDITY_THIN');
  });
});
