/**
 * assessPumpfun (pure) on PumpfunFacts built here from a clean baseline coin plus overrides: for
 * every pump.fun flag, the smallest facts that raise it (every catalog evidence key, value by
 * value) and the closest facts that must not, at the exact boundaries of docs/risk-model.md and
 * src/scans/pumpfun (10 % of the curve sold, 5 launches and 60 % dead, a dead curve under
 * 0.5 SOL, the creator from 5 % of the supply). The token checks that come with every coin are
 * covered flag by flag in test/scans/token/assess.test.ts; here they are shown to come through.
 * Account bytes are pump.fun's own layouts; addresses are real ed25519 keys and real PDAs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Address, getAddressEncoder } from '@solana/kit';
import { getMintEncoder } from '@solana-program/token';
import {
  type BondingCurveFields,
  encodeBondingCurve,
  encodePumpSwapPool,
} from '../../../src/sandbox/scenarios/builders/layouts.js';
import { CREATOR_HISTORY_FLAGS } from '../../../src/scans/creator-history/flags.js';
import { DUMP_WINDOW_S, YOUNG_EXIT_S } from '../../../src/scans/creator-history/thresholds.js';
import { assessPumpfun } from '../../../src/scans/pumpfun/assess.js';
import type { PumpfunFacts } from '../../../src/scans/pumpfun/facts.js';
import { PUMPFUN_FLAGS } from '../../../src/scans/pumpfun/flags.js';
import { NOT_A_MINT_ADVICE } from '../../../src/scans/token/assess.js';
import { TOKEN_FLAGS } from '../../../src/scans/token/flags.js';
import type { MintHistory, RawAccount, TokenFacts } from '../../../src/scans/token-facts/model.js';
import { findMetadataAddress } from '../../../src/solana/decoders/metaplex-metadata.js';
import {
  findBondingCurveAddress,
  INITIAL_REAL_TOKEN_RESERVES,
} from '../../../src/solana/decoders/pump-bonding-curve.js';
import {
  findCanonicalPumpPoolAddress,
  findPumpPoolAuthority,
} from '../../../src/solana/decoders/pumpswap-pool.js';
import {
  PUMP_MINT_AUTHORITY,
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_METADATA_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { assertBlindedIsNoSafer, assessCoverage } from '../../helpers/flag-coverage.js';
import { signature, wallet } from '../../helpers/labelled-keys.js';
import { type HolderSpec, holderAccounts, metaplexBytes } from '../../helpers/token-accounts.js';

// ---------------------------------------------------------------------------------------------
// Addresses and constants
// ---------------------------------------------------------------------------------------------

const MINT = wallet('pumpfun assess test mint');
const CREATOR = wallet('pumpfun assess test creator');
const STRANGER = wallet('pumpfun assess test stranger');
const WALLETS = Array.from({ length: 19 }, (_, i) => wallet(`pumpfun assess test holder ${i}`));
const TOKEN_ACCOUNTS = Array.from({ length: 20 }, (_, i) => wallet(`pumpfun assess test token account ${i}`));
const CURVE = await findBondingCurveAddress(MINT);
const POOL = await findCanonicalPumpPoolAddress(MINT);
const METADATA = await findMetadataAddress(MINT);

const NOW = 1_800_000_000;
const DAY = 86_400;
const SOL = 1_000_000_000n;
/** pump.fun's standard coin: 1 billion tokens of 6 decimals. */
const SUPPLY = 1_000_000_000_000_000n;
const PCT = SUPPLY / 100n;
/** A never-graduated curve under this many lamports of real reserves is dead. */
const DEAD_RESERVES = SOL / 2n;
const VIRTUAL_TOKENS = 1_073_000_000_000_000n;

// ---------------------------------------------------------------------------------------------
// The builder: a clean, half-sold standard coin, plus overrides
// ---------------------------------------------------------------------------------------------

/** A curve with `sold` of its sellable tokens gone (default: half). */
function curveFields(over: Partial<BondingCurveFields> & { sold?: bigint } = {}): BondingCurveFields {
  const { sold = INITIAL_REAL_TOKEN_RESERVES / 2n, ...fields } = over;
  return {
    virtualTokenReserves: VIRTUAL_TOKENS - sold,
    virtualQuoteReserves: 30n * SOL + 40n * SOL,
    realTokenReserves: INITIAL_REAL_TOKEN_RESERVES - sold,
    realQuoteReserves: 40n * SOL,
    tokenTotalSupply: SUPPLY,
    complete: false,
    creator: CREATOR,
    ...fields,
  };
}

/** One of the creator's other launches, as getProgramAccounts returns it. */
type Launch =
  | 'dead'
  | 'alive'
  | 'graduated'
  | { readonly realQuoteReserves: bigint; readonly complete?: boolean };

function launches(list: readonly Launch[]): PumpfunFacts['launches'] {
  return {
    curves: list.map((launch, i) => {
      const fields =
        launch === 'dead'
          ? curveFields({ sold: INITIAL_REAL_TOKEN_RESERVES / 100n, realQuoteReserves: SOL / 10n })
          : launch === 'alive'
            ? curveFields({ realQuoteReserves: 20n * SOL })
            : launch === 'graduated'
              ? curveFields({ sold: INITIAL_REAL_TOKEN_RESERVES, realQuoteReserves: 0n, complete: true })
              : curveFields({
                  realQuoteReserves: launch.realQuoteReserves,
                  complete: launch.complete ?? false,
                });
      return { address: wallet(`pumpfun assess test launch ${i}`), data: encodeBondingCurve(fields) };
    }),
    error: null,
  };
}

const account = (address: Address, owner: Address, data: Uint8Array): RawAccount => ({
  address,
  owner,
  lamports: 1_461_600n,
  data,
});

function mintData(spec: { supply: bigint; decimals: number; mintAuthority: Address | null }): Uint8Array {
  return new Uint8Array(
    getMintEncoder().encode({
      mintAuthority: spec.mintAuthority,
      supply: spec.supply,
      decimals: spec.decimals,
      isInitialized: true,
      freezeAuthority: null,
    }),
  );
}

/** The curve's own token account holds the unsold tokens; 19 wallets 1 % each; the rest is spread thin. */
const CURVE_HOLDING: HolderSpec = { owner: CURVE, amount: 60n * PCT };
const crowd = (top: readonly HolderSpec[] = []): HolderSpec[] => [
  CURVE_HOLDING,
  ...top,
  ...WALLETS.slice(0, 19 - top.length).map((owner) => ({ owner, amount: PCT })),
];

interface CoinSpec {
  readonly supply?: bigint;
  readonly decimals?: number;
  readonly mintAuthority?: Address | null;
  /** Replaces the mint account (null = no account). */
  readonly mintAccount?: RawAccount | null;
  /** Fields of this coin's curve, over the half-sold baseline. */
  readonly curve?: Partial<BondingCurveFields> & { sold?: bigint };
  /** Replaces the curve account (null = no account at the curve PDA). */
  readonly curveAccount?: RawAccount | null;
  readonly pool?: RawAccount | null;
  /** The largest holders; null = getTokenLargestAccounts refused. */
  readonly holders?: readonly HolderSpec[] | null;
  /** The creator's launches; default: only this coin's own curve. */
  readonly launches?: PumpfunFacts['launches'];
  readonly history?: MintHistory | null;
}

function coin(spec: CoinSpec = {}): PumpfunFacts {
  const data = mintData({
    supply: spec.supply ?? SUPPLY,
    decimals: spec.decimals ?? 6,
    mintAuthority: spec.mintAuthority ?? null,
  });
  const holders = spec.holders === undefined ? crowd() : spec.holders;
  const curveBytes = encodeBondingCurve(curveFields(spec.curve));
  const token: TokenFacts = {
    mint: MINT,
    mintAccount: spec.mintAccount === undefined ? account(MINT, TOKEN_PROGRAM, data) : spec.mintAccount,
    metadataAddress: METADATA,
    metadataAccount: account(
      METADATA,
      TOKEN_METADATA_PROGRAM,
      metaplexBytes(MINT, PUMP_MINT_AUTHORITY, false),
    ),
    extraAccounts: [],
    epoch: 800n,
    ...(holders === null
      ? { largest: null, largestError: 'getTokenLargestAccounts: 429 Too Many Requests', holderAccounts: [] }
      : { largestError: null, ...holderAccounts(MINT, TOKEN_PROGRAM, holders, TOKEN_ACCOUNTS) }),
    history:
      spec.history === undefined
        ? {
            count: 400,
            oldest: { signature: signature('create'), blockTime: NOW - 30 * DAY },
            truncated: false,
          }
        : spec.history,
    nowSeconds: NOW,
  };
  return {
    token,
    curveAddress: CURVE,
    curve: spec.curveAccount === undefined ? account(CURVE, PUMP_PROGRAM, curveBytes) : spec.curveAccount,
    poolAddress: POOL,
    pool: spec.pool ?? null,
    launches:
      spec.launches === undefined
        ? { curves: [{ address: CURVE, data: curveBytes }], error: null }
        : spec.launches,
  };
}

// ---------------------------------------------------------------------------------------------
// Running assess: every result is checked against the model's invariants
// ---------------------------------------------------------------------------------------------

type Code = keyof typeof PUMPFUN_FLAGS;

const coverage = assessCoverage(PUMPFUN_FLAGS, assessPumpfun);
const { assess, expectRaised, notRaised: expectNotRaised, weightOf } = coverage;

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

describe('assessPumpfun (pure), flag by flag', () => {
  it('the baseline: a half-sold standard coin, revoked authorities, spread holders, one launch, raises nothing', () => {
    const result = assess(coin());
    assert.deepEqual(result.flags, []);
    assert.equal(result.risk_score, 0);
    assert.equal(result.confidence, 1);
    const evidence = result.evidence as Record<string, any>;
    assert.equal(evidence.curve_progress, 0.5);
    assert.equal(evidence.curve_complete, false);
    assert.equal(evidence.graduated, false);
    assert.equal(evidence.pool, null);
    assert.equal(evidence.creator, CREATOR);
    assert.deepEqual(evidence.creator_launches, { launches: 1, graduated: 0, dead: 0 });
    assert.ok(
      evidence.excluded.some(
        (e: { owner: string; why: string }) => e.owner === CURVE && e.why === 'pump.fun bonding curve',
      ),
      'the curve is set aside from concentration, by name',
    );
    assert.match(
      result.summary,
      /^pump\.fun coin \w{4}…\w{4} \(FLAG\): low risk; no risk flags were raised\.$/,
    );
  });

  it('NOT_PUMPFUN_MINT: no curve, a curve the pump program does not own, or undecodable; not a pump-owned curve', () => {
    const none = assess(coin({ curveAccount: null, supply: SUPPLY + 1n }));
    expectRaised(none, 'NOT_PUMPFUN_MINT', { bonding_curve: CURVE, curve_owner: null });
    assert.match(none.summary, /^Token /);
    assert.match(none.recommendation, /not launched on pump\.fun/);
    expectNotRaised(none, 'PUMP_NONSTANDARD_SUPPLY', 'the pump.fun checks do not apply to a non-pump mint');
    assert.equal((none.evidence as Record<string, unknown>).curve_progress, undefined);

    const forged = account(CURVE, SYSTEM_PROGRAM, encodeBondingCurve(curveFields()));
    expectRaised(assess(coin({ curveAccount: forged })), 'NOT_PUMPFUN_MINT', {
      bonding_curve: CURVE,
      curve_owner: SYSTEM_PROGRAM,
    });
    const garbage = account(CURVE, PUMP_PROGRAM, new Uint8Array(115));
    expectRaised(assess(coin({ curveAccount: garbage })), 'NOT_PUMPFUN_MINT', {
      bonding_curve: CURVE,
      curve_owner: PUMP_PROGRAM,
    });

    expectNotRaised(assess(coin()), 'NOT_PUMPFUN_MINT', 'a decodable curve owned by the pump program');
    // The original 49-byte layout (no creator field) is still a pump.fun curve.
    const legacy = account(CURVE, PUMP_PROGRAM, encodeBondingCurve(curveFields()).subarray(0, 49));
    const old = assess(coin({ curveAccount: legacy }));
    expectNotRaised(old, 'NOT_PUMPFUN_MINT', 'the original 49-byte curve layout');
    assert.equal((old.evidence as Record<string, unknown>).creator, null);
  });

  it('PUMP_NONSTANDARD_SUPPLY: one unit over the billion, or 9 decimals; not exactly 1 billion at 6 decimals', () => {
    expectRaised(assess(coin({ supply: SUPPLY + 1n })), 'PUMP_NONSTANDARD_SUPPLY', {
      supply: '1000000000000001',
      decimals: 6,
    });
    const nine = assess(coin({ decimals: 9 }));
    expectRaised(nine, 'PUMP_NONSTANDARD_SUPPLY', { supply: '1000000000000000', decimals: 9 });
    assert.equal(weightOf(nine, 'PUMP_NONSTANDARD_SUPPLY'), 0.6);
    expectNotRaised(assess(coin()), 'PUMP_NONSTANDARD_SUPPLY', 'the standard supply and decimals');
  });

  describe('CREATOR_SERIAL_LAUNCHER: at least 5 launches and at least 60 % of them dead', () => {
    const rows: readonly { name: string; list: Launch[]; raised: boolean }[] = [
      {
        name: '5 launches, 3 dead (60 %)',
        list: ['dead', 'dead', 'dead', 'alive', 'graduated'],
        raised: true,
      },
      {
        name: '5 launches, 2 dead (40 %)',
        list: ['dead', 'dead', 'alive', 'alive', 'graduated'],
        raised: false,
      },
      { name: '4 launches, all dead (too few)', list: ['dead', 'dead', 'dead', 'dead'], raised: false },
      {
        name: '10 launches, 6 dead (60 %)',
        list: [...Array(6).fill('dead'), ...Array(4).fill('alive')],
        raised: true,
      },
      {
        name: '10 launches, 5 dead (50 %)',
        list: [...Array(5).fill('dead'), ...Array(5).fill('alive')],
        raised: false,
      },
      {
        name: '100 launches, 59 dead (59 %)',
        list: [...Array(59).fill('dead'), ...Array(41).fill('alive')],
        raised: false,
      },
    ];
    for (const row of rows) {
      it(`${row.raised ? 'raised' : 'not raised'}: ${row.name}`, () => {
        const result = assess(coin({ launches: launches(row.list) }));
        if (row.raised) {
          expectRaised(result, 'CREATOR_SERIAL_LAUNCHER', {
            creator: CREATOR,
            launches: row.list.length,
            dead: row.list.filter((l) => l === 'dead').length,
            graduated: row.list.filter((l) => l === 'graduated').length,
          });
        } else {
          expectNotRaised(result, 'CREATOR_SERIAL_LAUNCHER', row.name);
        }
      });
    }

    it('a curve is dead under 0.5 SOL of real reserves: 1 lamport under counts, exactly 0.5 SOL does not', () => {
      const base: Launch[] = ['dead', 'dead', 'alive', 'alive'];
      expectRaised(
        assess(coin({ launches: launches([...base, { realQuoteReserves: DEAD_RESERVES - 1n }]) })),
        'CREATOR_SERIAL_LAUNCHER',
        { creator: CREATOR, launches: 5, dead: 3, graduated: 0 },
      );
      expectNotRaised(
        assess(coin({ launches: launches([...base, { realQuoteReserves: DEAD_RESERVES }]) })),
        'CREATOR_SERIAL_LAUNCHER',
        'a curve holding exactly 0.5 SOL is struggling, not dead',
      );
    });

    it('a graduated curve is not dead even with no reserves left; undecodable curves are not launches', () => {
      const graduated = assess(
        coin({ launches: launches(['dead', 'dead', 'graduated', 'graduated', 'graduated']) }),
      );
      expectNotRaised(graduated, 'CREATOR_SERIAL_LAUNCHER', '2 of 5 dead, 3 graduated with 0 SOL');
      assert.deepEqual((graduated.evidence as Record<string, unknown>).creator_launches, {
        launches: 5,
        graduated: 3,
        dead: 2,
      });
      const four = launches(['dead', 'dead', 'dead', 'dead'])!;
      const padded = {
        curves: [...four.curves!, { address: 'junk', data: new Uint8Array(115) }],
        error: null,
      };
      expectNotRaised(assess(coin({ launches: padded })), 'CREATOR_SERIAL_LAUNCHER', '4 launches and junk');
    });

    it('weighs by the number of launches: half at 5, full from 10', () => {
      const weight = (n: number) =>
        weightOf(assess(coin({ launches: launches(Array(n).fill('dead')) })), 'CREATOR_SERIAL_LAUNCHER');
      assert.equal(weight(5), 0.3);
      assert.equal(weight(10), 0.6);
      assert.equal(weight(20), 0.6);
    });
  });

  describe('CREATOR_HOLDS_SUPPLY: the creator holds 5 % of the supply or more (full strength at 20 %)', () => {
    const holding = (...amounts: bigint[]) =>
      coin({ holders: crowd(amounts.map((amount) => ({ owner: CREATOR, amount }))) });

    it('raised at exactly 5 %; not one raw unit under', () => {
      const at = assess(holding(5n * PCT));
      expectRaised(at, 'CREATOR_HOLDS_SUPPLY', { creator: CREATOR, share: 0.05 });
      assert.ok(weightOf(at, 'CREATOR_HOLDS_SUPPLY') > 0, 'it counts at the threshold');
      expectNotRaised(assess(holding(5n * PCT - 1n)), 'CREATOR_HOLDS_SUPPLY', '4.9999999 %');
    });

    it('the creator’s token accounts are added up; another wallet holding 50 % is not the creator', () => {
      expectRaised(assess(holding(3n * PCT, 2n * PCT)), 'CREATOR_HOLDS_SUPPLY', {
        creator: CREATOR,
        share: 0.05,
      });
      expectNotRaised(
        assess(coin({ holders: crowd([{ owner: STRANGER, amount: 50n * PCT }]) })),
        'CREATOR_HOLDS_SUPPLY',
        'a stranger is the whale',
      );
    });

    it('weighs more as the share grows, at full medium weight (0.3) from 20 %', () => {
      const w = (pct: bigint) => weightOf(assess(holding(pct * PCT)), 'CREATOR_HOLDS_SUPPLY');
      assert.ok(w(5n) < w(10n) && w(10n) < w(15n), `${w(5n)} < ${w(10n)} < ${w(15n)}`);
      assert.equal(w(20n), 0.3);
      assert.equal(w(40n), 0.3);
    });
  });

  describe('CURVE_EARLY: less than 10 % of the bonding curve sold', () => {
    const TENTH = INITIAL_REAL_TOKEN_RESERVES / 10n;

    it('raised one raw token under 10 % sold, and on a fresh curve; not at exactly 10 %', () => {
      const under = TENTH - 1n;
      expectRaised(assess(coin({ curve: { sold: under } })), 'CURVE_EARLY', {
        progress: Number(under) / Number(INITIAL_REAL_TOKEN_RESERVES),
      });
      expectRaised(assess(coin({ curve: { sold: 0n, realQuoteReserves: 0n } })), 'CURVE_EARLY', {
        progress: 0,
      });
      const at = assess(coin({ curve: { sold: TENTH } }));
      expectNotRaised(at, 'CURVE_EARLY', 'exactly 10 % sold');
      assert.equal((at.evidence as Record<string, unknown>).curve_progress, 0.1);
    });

    it('not on a completed curve, whatever its token reserves say; the graduated pool is reported', async () => {
      const poolData = encodePumpSwapPool({
        poolBump: 255,
        index: 0,
        creator: await findPumpPoolAuthority(MINT),
        baseMint: MINT,
        quoteMint: WSOL_MINT,
        lpMint: STRANGER,
        poolBaseTokenAccount: TOKEN_ACCOUNTS[18]!,
        poolQuoteTokenAccount: TOKEN_ACCOUNTS[19]!,
        lpSupply: 1n,
        coinCreator: CREATOR,
      });
      const done = assess(
        coin({ curve: { sold: 0n, complete: true }, pool: account(POOL, PUMPSWAP_PROGRAM, poolData) }),
      );
      expectNotRaised(done, 'CURVE_EARLY', 'the curve completed');
      const evidence = done.evidence as Record<string, unknown>;
      assert.equal(evidence.curve_progress, 1);
      assert.equal(evidence.graduated, true);
      assert.equal(evidence.pool, POOL);
      const fake = assess(coin({ pool: account(POOL, SYSTEM_PROGRAM, poolData) }));
      assert.equal(
        (fake.evidence as Record<string, unknown>).graduated,
        false,
        'a pool not owned by PumpSwap',
      );
    });
  });

  it("CREATOR_HISTORY_UNAVAILABLE: the creator's launches could not be read (confidence −0.2); not an empty answer", () => {
    const blind = assess(coin({ launches: { curves: null, error: 'getProgramAccounts: 410 Gone' } }));
    expectRaised(blind, 'CREATOR_HISTORY_UNAVAILABLE', { reason: 'getProgramAccounts: 410 Gone' });
    assert.equal(blind.confidence, 0.8);
    const empty = assess(coin({ launches: { curves: [], error: null } }));
    expectNotRaised(empty, 'CREATOR_HISTORY_UNAVAILABLE', 'the history was read, it is just empty');
    assert.equal(empty.confidence, 1);
    assert.deepEqual((empty.evidence as Record<string, unknown>).creator_launches, {
      launches: 0,
      graduated: 0,
      dead: 0,
    });
  });

  describe("a history read through the creator's token accounts: complete, or partial", () => {
    const COMPLETE = { tokenAccounts: 6, mints: 5, mintsRead: 5, truncated: false, holdsThisCoin: true };
    const via = (
      list: readonly Launch[],
      coverage: Partial<typeof COMPLETE> = {},
    ): PumpfunFacts['launches'] => ({
      ...launches(list)!,
      coverage: { ...COMPLETE, ...coverage },
    });

    it('complete: no flag, and the evidence says how the launches were found and what that misses', () => {
      const known = assess(coin({ launches: via(['alive', 'dead']) }));
      expectNotRaised(known, 'CREATOR_HISTORY_UNAVAILABLE', 'the creator holds this coin');
      assert.equal(known.confidence, 1);
      const history = (known.evidence as Record<string, any>).creator_launches;
      assert.equal(history.launches_found_via, 'creator token accounts');
      assert.equal(history.list_complete, true);
      assert.match(history.missed, /closed/);
      assert.deepEqual(
        history.list.map((l: { state: string }) => l.state),
        ['on curve', 'dead'],
      );
      assert.equal(history.mints_checked, 5);
    });

    it('the creator has no token account of this coin: CREATOR_HISTORY_UNAVAILABLE (confidence −0.2), never a lower score', () => {
      const known = assess(coin({ launches: via(['alive']) }));
      const partial = assess(coin({ launches: via(['alive'], { holdsThisCoin: false }) }));
      const evidence = coverage.raised(partial, 'CREATOR_HISTORY_UNAVAILABLE');
      assert.match(String(evidence.reason), /no token account of this coin/);
      assert.equal(partial.confidence, 0.8);
      assert.equal((partial.evidence as Record<string, any>).creator_launches.list_complete, false);
      assertBlindedIsNoSafer(known, partial, 'a partial history');
    });

    it('more mints than are read: partial too', () => {
      const partial = assess(
        coin({ launches: via(['alive'], { mints: 900, mintsRead: 500, truncated: true }) }),
      );
      const evidence = coverage.raised(partial, 'CREATOR_HISTORY_UNAVAILABLE');
      assert.match(String(evidence.reason), /900 other mints; only 500 were checked/);
    });

    it('a partial history that already shows a serial launcher raises the launcher, not the doubt', () => {
      const result = assess(
        coin({ launches: via(['dead', 'dead', 'dead', 'dead', 'dead'], { holdsThisCoin: false }) }),
      );
      expectRaised(result, 'CREATOR_SERIAL_LAUNCHER', {
        creator: CREATOR,
        launches: 5,
        dead: 5,
        graduated: 0,
      });
      expectNotRaised(result, 'CREATOR_HISTORY_UNAVAILABLE', 'five dead launches found are evidence enough');
      assert.equal((result.evidence as Record<string, any>).creator_launches.list_complete, false);
    });
  });

  describe('the token checks come through', () => {
    it('MINT_AUTHORITY_ACTIVE on a pump.fun coin: a live mint authority; not a None tag over stale key bytes', () => {
      const live = assess(coin({ mintAuthority: CREATOR }));
      expectRaised(live, 'MINT_AUTHORITY_ACTIVE', { mint_authority: CREATOR, authority_kind: 'keypair' });
      assert.ok(live.risk_score >= 0.6, `risk ${live.risk_score}`);
      // Legacy pump.fun mints keep the old authority's bytes behind a None tag: the tag decides.
      const stale = mintData({ supply: SUPPLY, decimals: 6, mintAuthority: CREATOR });
      stale.fill(0, 0, 4);
      assert.deepEqual(stale.subarray(4, 36), getAddressEncoder().encode(CREATOR), 'the key bytes stay');
      expectNotRaised(
        assess(coin({ mintAccount: account(MINT, TOKEN_PROGRAM, stale) })),
        'MINT_AUTHORITY_ACTIVE',
        'None tag, stale key',
      );
    });

    it('MINT_AUTHORITY_ACTIVE on a mint with no pump.fun curve, next to NOT_PUMPFUN_MINT', () => {
      const result = assess(coin({ curveAccount: null, mintAuthority: STRANGER }));
      expectRaised(result, 'MINT_AUTHORITY_ACTIVE', { mint_authority: STRANGER, authority_kind: 'keypair' });
      assert.ok(result.flags.includes('NOT_PUMPFUN_MINT'));
    });

    it('NOT_A_MINT: no mint account; only that flag, and the not-a-mint advice', () => {
      const result = assess(coin({ mintAccount: null }));
      expectRaised(result, 'NOT_A_MINT', {
        exists: false,
        owner: null,
        reason: 'no account exists at this address',
      });
      assert.deepEqual(result.flags, ['NOT_A_MINT']);
      assert.equal(result.recommendation, NOT_A_MINT_ADVICE.proceed);
      assert.match(result.summary, /^Address /);
    });
  });
});

describe('assessPumpfun (pure), missing data', () => {
  /** Coins whose risk does not come from the data withheld below. */
  const variants: Record<string, CoinSpec> = {
    clean: {},
    'early curve': { curve: { sold: 0n, realQuoteReserves: 0n } },
    'non-standard supply': { supply: SUPPLY * 2n },
    'live mint authority': { mintAuthority: CREATOR },
    graduated: { curve: { complete: true }, pool: account(POOL, PUMPSWAP_PROGRAM, new Uint8Array(300)) },
  };
  /** Each source of data, withheld. */
  const blinders: Record<string, (spec: CoinSpec) => CoinSpec> = {
    "the creator's launches": (spec) => ({ ...spec, launches: { curves: null, error: 'injected' } }),
    'the largest holders': (spec) => ({ ...spec, holders: null }),
    "the mint's history": (spec) => ({ ...spec, history: null }),
    'all three': (spec) => ({
      ...spec,
      launches: { curves: null, error: 'injected' },
      holders: null,
      history: null,
    }),
  };

  for (const [name, spec] of Object.entries(variants)) {
    it(`${name}: withheld data lowers confidence and never lowers the score`, () => {
      const known = assess(coin(spec));
      for (const [what, blind] of Object.entries(blinders)) {
        assertBlindedIsNoSafer(known, assess(coin(blind(spec))), what);
      }
      const all = assess(coin(blinders['all three']!(spec)));
      assert.equal(all.confidence, Math.round(0.8 * 0.7 * 0.9 * 1000) / 1000, 'the penalties compound');
    });
  }

  it('unknown is not safe: unread launches and holders score above the same coin known to be clean', () => {
    const clean = assess(coin());
    const unread = assess(coin({ launches: { curves: null, error: 'injected' }, holders: null }));
    assert.ok(unread.risk_score > clean.risk_score);
  });
});

describe('assessPumpfun (pure), creator history from its transactions', () => {
  const T0 = NOW - DAY;
  const DEV = 10n * PCT;
  const deadCurve = () =>
    encodeBondingCurve(
      curveFields({ sold: INITIAL_REAL_TOKEN_RESERVES / 100n, realQuoteReserves: SOL / 10n }),
    );
  /** A launch the creator's transactions show: created at T0 + i hours, dev buy DEV, `sold` sold `after` s later. */
  const earlier = (i: number, sold: bigint, after: number) => ({
    mint: wallet(`pumpfun history test mint ${i}`),
    curve: wallet(`pumpfun history test curve ${i}`),
    createdAt: T0 + i * 3600,
    moves: [
      { at: T0 + i * 3600, amount: DEV },
      ...(sold > 0n ? [{ at: T0 + i * 3600 + after, amount: -sold }] : []),
    ],
  });
  /** This coin (created at NOW − 1 h, its dev buy sold `sold` after `after` s) beside `others`, all dead but this. */
  function withHistory(
    others: ReturnType<typeof earlier>[],
    own: { sold: bigint; after: number } = { sold: 0n, after: 0 },
  ) {
    const self = {
      mint: MINT as string,
      curve: CURVE as string,
      createdAt: NOW - 3600,
      moves: [
        { at: NOW - 3600, amount: DEV },
        ...(own.sold > 0n ? [{ at: NOW - 3600 + own.after, amount: -own.sold }] : []),
      ],
    };
    const curveBytes = encodeBondingCurve(curveFields({ creator: CREATOR }));
    return coin({
      launches: {
        curves: [
          { address: CURVE, data: curveBytes, mint: MINT },
          ...others.map((o) => ({ address: o.curve, data: deadCurve(), mint: o.mint })),
        ],
        error: null,
        history: {
          programAccounts: { status: 'unavailable', reason: 'refused' },
          signatures: {
            status: 'read',
            signatures: 10,
            reachedFirst: true,
            oldestBlockTime: T0,
            transactionsRead: 10,
            transactionsCut: 0,
            error: null,
          },
          launches: [self, ...others],
          curves: [],
        },
      },
    });
  }

  it('CREATOR_DEV_DUMP on this coin: half the dev buy sold within 30 minutes; not 1 token less, not 1 s later', () => {
    expectRaised(assess(withHistory([], { sold: DEV / 2n, after: DUMP_WINDOW_S })), 'CREATOR_DEV_DUMP', {
      creator: CREATOR,
      mint: MINT,
      dev_buy: String(DEV),
      sold: String(DEV / 2n),
      seconds_after_creation: DUMP_WINDOW_S,
      earlier_dumps: 0,
    });
    expectNotRaised(
      assess(withHistory([], { sold: DEV / 2n - 1n, after: 60 })),
      'CREATOR_DEV_DUMP',
      'just under half',
    );
    expectNotRaised(
      assess(withHistory([], { sold: DEV, after: DUMP_WINDOW_S + 1 })),
      'CREATOR_DEV_DUMP',
      'too late',
    );
  });

  it('CREATOR_DEV_DUMP on earlier coins: two dumped is a habit, one is not', () => {
    const two = [earlier(1, DEV, 600), earlier(2, DEV, 600)];
    const result = assess(withHistory(two));
    assert.ok(result.flags.includes('CREATOR_DEV_DUMP'), String(result.flags));
    expectNotRaised(assess(withHistory([earlier(1, DEV, 600)])), 'CREATOR_DEV_DUMP', 'one earlier dump');
  });

  it('CREATOR_SERIAL_LAUNCHER from coins that died young: 3 earlier dead coins the creator left within the hour; not 2, not after', () => {
    // 4 launches in all: under the 5 the dead-share rule needs, so only the young deaths can raise it.
    const young = [earlier(1, DEV, 600), earlier(2, DEV, 900), earlier(3, DEV, YOUNG_EXIT_S)];
    const result = assess(withHistory(young));
    assert.ok(result.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(result.flags));
    assert.equal((result.evidence as any).flags.CREATOR_SERIAL_LAUNCHER.died_young, 3);
    expectNotRaised(assess(withHistory(young.slice(0, 2))), 'CREATOR_SERIAL_LAUNCHER', 'two young deaths');
    const late = [earlier(1, DEV, 600), earlier(2, DEV, 900), earlier(3, DEV, YOUNG_EXIT_S + 1)];
    expectNotRaised(assess(withHistory(late)), 'CREATOR_SERIAL_LAUNCHER', 'the third left after the hour');
    const kept = [earlier(1, DEV, 600), earlier(2, DEV, 900), earlier(3, (DEV * 89n) / 100n, 600)];
    expectNotRaised(assess(withHistory(kept)), 'CREATOR_SERIAL_LAUNCHER', 'the third kept 11 %');
  });

  it('a first-time creator whose whole history was read: complete, never a serial launcher or a dumper', () => {
    const result = assess(withHistory([]));
    for (const code of [
      'CREATOR_SERIAL_LAUNCHER',
      'CREATOR_DEV_DUMP',
      'CREATOR_HISTORY_UNAVAILABLE',
    ] as const) {
      expectNotRaised(result, code, 'first-time creator');
    }
    const history = (result.evidence as any).creator_launches;
    assert.equal(history.list_complete, true);
    assert.equal(history.launches, 1);
  });
});

describe('assessPumpfun (pure), catalog coverage', () => {
  it('the token flags in the pump.fun catalog are the token catalog, unchanged', () => {
    for (const [code, definition] of Object.entries(TOKEN_FLAGS)) {
      assert.equal(PUMPFUN_FLAGS[code as Code], definition, `${code} is the token definition`);
    }
  });

  it('every pump.fun flag (the catalog less the token flags) is raised by a test above', () => {
    // The creator history's flags sit in the token catalog too; they are raised here.
    const own = (code: string) => !(code in TOKEN_FLAGS) || code in CREATOR_HISTORY_FLAGS;
    const pumpOnly = Object.keys(PUMPFUN_FLAGS).filter(own);
    coverage.assertEveryFlagRaised(
      Object.fromEntries(Object.entries(TOKEN_FLAGS).filter(([code]) => !own(code))),
    );
    assert.ok(pumpOnly.length >= 6, `${pumpOnly.length} pump.fun flags`);
    coverage.assertEveryResultChecked(40);
  });
});
