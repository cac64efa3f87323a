/**
 * assessPumpfun, flag by flag: bonding curves in pump.fun's own layout, the creator's other
 * launches as getProgramAccounts returns them, and the token checks that come with every coin.
 * The token flags themselves are covered one by one in test/scans/token/flags.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner } from '@solana/kit';
import {
  type BondingCurveFields,
  encodeBondingCurve,
} from '../../../src/sandbox/scenarios/builders/layouts.js';
import { CREATOR_HISTORY_FLAGS } from '../../../src/scans/creator-history/flags.js';
import { assessPumpfun } from '../../../src/scans/pumpfun/assess.js';
import type { PumpfunFacts } from '../../../src/scans/pumpfun/facts.js';
import { PUMPFUN_FLAGS } from '../../../src/scans/pumpfun/flags.js';
import { TOKEN_FLAGS } from '../../../src/scans/token/flags.js';
import type { TokenFacts } from '../../../src/scans/token-facts/model.js';
import { INITIAL_REAL_TOKEN_RESERVES } from '../../../src/solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM, SYSTEM_PROGRAM } from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';
import { type HolderSpec, holderAccounts, mintBytes, raw } from '../../helpers/token-accounts.js';

const NOW = 1_800_000_000;
const DAY = 86_400;
const PUMP_SUPPLY = 1_000_000_000_000_000n;
const SOL = 1_000_000_000n;
/** pump.fun's own flags, and the creator history's (in the token catalog too, raised here). */
const PUMP_ONLY = Object.fromEntries(
  Object.entries(PUMPFUN_FLAGS).filter(([code]) => !(code in TOKEN_FLAGS) || code in CREATOR_HISTORY_FLAGS),
);

/** A curve with `progress` of its sellable tokens sold (0..1). */
function curveFields(
  creator: Address,
  progress: number,
  over: Partial<BondingCurveFields> = {},
): BondingCurveFields {
  const sold = (INITIAL_REAL_TOKEN_RESERVES * BigInt(Math.round(progress * 1_000_000))) / 1_000_000n;
  return {
    virtualTokenReserves: 1_073_000_000_000_000n - sold,
    virtualQuoteReserves: 30n * SOL,
    realTokenReserves: INITIAL_REAL_TOKEN_RESERVES - sold,
    realQuoteReserves: (85n * SOL * BigInt(Math.round(progress * 1000))) / 1000n,
    tokenTotalSupply: PUMP_SUPPLY,
    complete: false,
    creator,
    ...over,
  };
}

describe('assessPumpfun, flag by flag', () => {
  const flags = flagCoverage(PUMP_ONLY);
  let mint: Address;
  let creator: Address;
  let curveAddress: Address;
  let poolAddress: Address;
  let owners: Address[];
  let tokenAccounts: Address[];
  let spread: HolderSpec[];
  let facts: (over?: {
    supply?: bigint;
    holders?: HolderSpec[];
    curve?: PumpfunFacts['curve'];
    progress?: number;
    complete?: boolean;
    graduated?: boolean;
    launches?: PumpfunFacts['launches'];
  }) => PumpfunFacts;
  /** Other launches by the creator: `dead` stuck under 0.5 SOL, `alive` with 20 SOL, `graduated` complete. */
  let launches: (dead: number, alive: number, graduated: number) => PumpfunFacts['launches'];

  before(async () => {
    const keys = await Promise.all(
      Array.from({ length: 44 }, async () => (await generateKeyPairSigner()).address),
    );
    [mint, creator, curveAddress, poolAddress] = keys as [Address, Address, Address, Address];
    owners = keys.slice(4, 24);
    tokenAccounts = keys.slice(24, 44);
    spread = owners.map((owner) => ({ owner, amount: PUMP_SUPPLY / 100n }));
    facts = (over = {}) => {
      const { owner, data } = mintBytes({ supply: over.supply ?? PUMP_SUPPLY });
      const token: TokenFacts = {
        mint,
        mintAccount: raw(mint, owner, data),
        metadataAddress: keys[0]!,
        metadataAccount: null,
        extraAccounts: [],
        epoch: 800n,
        largestError: null,
        nowSeconds: NOW,
        history: { count: 300, oldest: { signature: 'create', blockTime: NOW - 30 * DAY }, truncated: false },
        ...holderAccounts(mint, owner, over.holders ?? spread, tokenAccounts),
      };
      const curveBytes = encodeBondingCurve(
        curveFields(creator, over.progress ?? 0.5, { complete: over.complete ?? false }),
      );
      return {
        token,
        curveAddress,
        curve: over.curve === undefined ? raw(curveAddress, PUMP_PROGRAM, curveBytes) : over.curve,
        poolAddress,
        pool: over.graduated ? raw(poolAddress, PUMPSWAP_PROGRAM, new Uint8Array(300)) : null,
        launches: over.launches === undefined ? { curves: [], error: null } : over.launches,
      };
    };
    launches = (dead, alive, graduated) => ({
      curves: [
        ...Array.from({ length: dead }, () => curveFields(creator, 0.01, { realQuoteReserves: SOL / 10n })),
        ...Array.from({ length: alive }, () => curveFields(creator, 0.3, { realQuoteReserves: 20n * SOL })),
        ...Array.from({ length: graduated }, () => curveFields(creator, 1, { complete: true })),
      ].map((c, i) => ({ address: `curve${i}`, data: encodeBondingCurve(c) })),
      error: null,
    });
  });

  it('a half-sold standard coin by a new creator, with spread holders, raises only that it has no metadata', () => {
    const result = assessPumpfun(facts());
    assert.deepEqual(result.flags, ['METADATA_MISSING']);
    assert.equal((result.evidence as any).curve_progress, 0.5);
    assert.match(result.summary, /^pump\.fun coin /);
  });

  it('NOT_PUMPFUN_MINT: no bonding curve, or one the pump program does not own; token checks still run', () => {
    const none = assessPumpfun(facts({ curve: null }));
    flags.raised(none, 'NOT_PUMPFUN_MINT', { bonding_curve: curveAddress, curve_owner: null });
    assert.ok(none.flags.includes('METADATA_MISSING'), 'the token checks still apply');
    assert.match(none.recommendation, /not launched on pump\.fun/);
    const forged = raw(curveAddress, SYSTEM_PROGRAM, encodeBondingCurve(curveFields(creator, 0.5)));
    flags.raised(assessPumpfun(facts({ curve: forged })), 'NOT_PUMPFUN_MINT', {
      curve_owner: SYSTEM_PROGRAM,
    });
    flags.notRaised(assessPumpfun(facts()), 'NOT_PUMPFUN_MINT');
  });

  it('PUMP_NONSTANDARD_SUPPLY: one token unit off the billion; not the standard supply', () => {
    flags.raised(assessPumpfun(facts({ supply: PUMP_SUPPLY + 1n })), 'PUMP_NONSTANDARD_SUPPLY', {
      supply: String(PUMP_SUPPLY + 1n),
      decimals: 6,
    });
    flags.notRaised(assessPumpfun(facts()), 'PUMP_NONSTANDARD_SUPPLY');
  });

  it('CREATOR_SERIAL_LAUNCHER: 5 launches, 3 dead (60 %); not 2 of 5 dead, nor 4 of 4 dead (too few)', () => {
    flags.raised(assessPumpfun(facts({ launches: launches(3, 1, 1) })), 'CREATOR_SERIAL_LAUNCHER', {
      creator,
      launches: 5,
      dead: 3,
      graduated: 1,
    });
    flags.notRaised(assessPumpfun(facts({ launches: launches(2, 2, 1) })), 'CREATOR_SERIAL_LAUNCHER');
    flags.notRaised(assessPumpfun(facts({ launches: launches(4, 0, 0) })), 'CREATOR_SERIAL_LAUNCHER');
    // A curve that still holds 0.5 SOL is not dead.
    const halfSol = launches(0, 2, 0)!.curves!.concat(
      [0, 1, 2].map((i) => ({
        address: `struggling${i}`,
        data: encodeBondingCurve(curveFields(creator, 0.01, { realQuoteReserves: SOL / 2n })),
      })),
    );
    flags.notRaised(
      assessPumpfun(facts({ launches: { curves: halfSol, error: null } })),
      'CREATOR_SERIAL_LAUNCHER',
    );
    const ten = flags.raised(
      assessPumpfun(facts({ launches: launches(9, 0, 1) })),
      'CREATOR_SERIAL_LAUNCHER',
    );
    const five = flags.raised(
      assessPumpfun(facts({ launches: launches(5, 0, 0) })),
      'CREATOR_SERIAL_LAUNCHER',
    );
    assert.ok(
      (ten.weight_applied as number) > (five.weight_applied as number),
      'more dead launches weigh more',
    );
  });

  it('CREATOR_HOLDS_SUPPLY: the creator holds 5 % of the supply; not 4.99 %', () => {
    const held = (amount: bigint) => [{ owner: creator, amount }, ...spread.slice(1)];
    flags.raised(assessPumpfun(facts({ holders: held(PUMP_SUPPLY / 20n) })), 'CREATOR_HOLDS_SUPPLY', {
      creator,
      share: 0.05,
    });
    flags.notRaised(
      assessPumpfun(facts({ holders: held(PUMP_SUPPLY / 20n - PUMP_SUPPLY / 10_000n) })),
      'CREATOR_HOLDS_SUPPLY',
    );
  });

  it('CURVE_EARLY: under 10 % of the curve sold; not 10 %, nor a completed curve', () => {
    const early = flags.raised(assessPumpfun(facts({ progress: 0.099 })), 'CURVE_EARLY');
    assert.ok(Math.abs((early.progress as number) - 0.099) < 1e-6);
    flags.notRaised(assessPumpfun(facts({ progress: 0.1 })), 'CURVE_EARLY');
    const graduated = assessPumpfun(facts({ progress: 0, complete: true, graduated: true }));
    flags.notRaised(graduated, 'CURVE_EARLY');
    assert.equal((graduated.evidence as any).graduated, true);
    assert.equal((graduated.evidence as any).pool, poolAddress);
  });

  it("CREATOR_HISTORY_UNAVAILABLE: the creator's launches could not be read; confidence drops, the score does not", () => {
    const known = assessPumpfun(facts());
    const blind = assessPumpfun(
      facts({ launches: { curves: null, error: 'injected: getProgramAccounts disabled' } }),
    );
    flags.raised(blind, 'CREATOR_HISTORY_UNAVAILABLE', { reason: 'injected: getProgramAccounts disabled' });
    assert.ok(blind.confidence < known.confidence);
    assert.ok(blind.risk_score >= known.risk_score);
    flags.notRaised(known, 'CREATOR_HISTORY_UNAVAILABLE');
  });

  it('a token risk comes through on a pump.fun coin: a live mint authority is flagged', () => {
    const coin = facts();
    const { owner, data } = mintBytes({ supply: PUMP_SUPPLY, mintAuthority: creator });
    const live = assessPumpfun({ ...coin, token: { ...coin.token, mintAccount: raw(mint, owner, data) } });
    assert.ok(live.flags.includes('MINT_AUTHORITY_ACTIVE'), String(live.flags));
  });

  it('CREATOR_DEV_DUMP: the creator sold half its dev buy 29 minutes after creating the coin; not a third', () => {
    const withSale = (sold: bigint): PumpfunFacts['launches'] => ({
      curves: [{ address: curveAddress, data: encodeBondingCurve(curveFields(creator, 0.2)), mint }],
      error: null,
      history: {
        programAccounts: { status: 'unavailable', reason: 'not probed' },
        signatures: {
          status: 'read',
          signatures: 3,
          reachedFirst: true,
          oldestBlockTime: NOW - DAY,
          transactionsRead: 3,
          transactionsCut: 0,
          error: null,
        },
        launches: [
          {
            mint,
            curve: curveAddress,
            createdAt: NOW - DAY,
            moves: [
              { at: NOW - DAY, amount: (30n * PUMP_SUPPLY) / 1000n },
              { at: NOW - DAY + 29 * 60, amount: -sold },
            ],
          },
        ],
        curves: [],
      },
    });
    flags.raised(
      assessPumpfun(facts({ launches: withSale((15n * PUMP_SUPPLY) / 1000n) })),
      'CREATOR_DEV_DUMP',
      {
        creator,
        mint,
        dev_buy: String((30n * PUMP_SUPPLY) / 1000n),
        sold: String((15n * PUMP_SUPPLY) / 1000n),
        seconds_after_creation: 29 * 60,
        earlier_dumps: 0,
      },
    );
    flags.notRaised(
      assessPumpfun(facts({ launches: withSale((10n * PUMP_SUPPLY) / 1000n) })),
      'CREATOR_DEV_DUMP',
    );
  });

  it('every pump.fun-only flag has a raising test above', () => {
    flags.assertEveryFlagRaised();
  });
});
