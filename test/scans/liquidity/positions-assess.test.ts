/**
 * LIQUIDITY_OWNER_CONCENTRATED and LIQUIDITY_OWNERS_UNAVAILABLE at their boundaries, on the
 * position facts positions.ts would have read: what is counted (in-range liquidity for Whirlpool
 * and CLMM, summed bin shares for DLMM), whose share it is (wallets, not programs), and that an
 * unreadable pool lowers confidence, never risk.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, getProgramDerivedAddress } from '@solana/kit';
import { assessLiquidity } from '../../../src/scans/liquidity/assess.js';
import type { LiquidityFacts } from '../../../src/scans/liquidity/facts.js';
import {
  MAX_POSITION_POOLS,
  type PoolPositions,
  type PositionFacts,
  type PositionRead,
} from '../../../src/scans/liquidity/positions.js';
import {
  assessPositions,
  MAX_OWNERS_SHOWN,
  type PoolOwnership,
} from '../../../src/scans/liquidity/positions-assess.js';
import { POSITION_FLAGS } from '../../../src/scans/liquidity/positions-flags.js';
import { OWNER_CONCENTRATED } from '../../../src/scans/liquidity/thresholds.js';
import { combineConfidence, combineRisk } from '../../../src/scans/risk/combine.js';
import { TOKEN_FLAGS } from '../../../src/scans/token/flags.js';
import { decodeLbPair } from '../../../src/solana/decoders/meteora-dlmm.js';
import type { DecodedMint } from '../../../src/solana/decoders/mint.js';
import { ORCA_WHIRLPOOL_PROGRAM } from '../../../src/solana/programs.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

const wallet = async () => (await generateKeyPairSigner()).address;
const POOL = 'Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE' as Address;
let n = 0;
const position = (owner: Address | null, liquidity: bigint, lower = -100, upper = 100): PositionRead => ({
  address: `position-${n++}` as Address,
  nftMint: null,
  owner,
  lower,
  upper,
  liquidity,
});
const whirlpool = (positions: PositionRead[] | null, current: number | null = 0): PoolPositions => ({
  dex: 'orca-whirlpool',
  pool: POOL,
  positions,
  current,
  errors: positions === null ? ['getProgramAccounts: refused'] : [],
});
const facts = (...pools: PoolPositions[]) => ({ pools, rounds: 3, calls: 4 });
const raised = new Set<string>();
function hitOf(pools: PoolPositions[], code = 'LIQUIDITY_OWNER_CONCENTRATED') {
  const hit = assessPositions(facts(...pools)).hits.find((h) => h.code === code);
  if (hit) {
    raised.add(code);
    const keys = POSITION_FLAGS[code as keyof typeof POSITION_FLAGS].evidenceKeys;
    assert.deepEqual(
      Object.keys(hit.evidence).sort(),
      [...keys].sort(),
      `${code}: its catalog evidence keys`,
    );
  }
  return hit;
}

describe('LIQUIDITY_OWNER_CONCENTRATED', () => {
  it(`raises from ${OWNER_CONCENTRATED.warn * 100} % of in-range liquidity, not just under it`, async () => {
    const [a, b] = [await wallet(), await wallet()];
    assert.equal(hitOf([whirlpool([position(a, 4_999n), position(b, 5_001n)])])?.evidence.owner, b);
    assert.equal(hitOf([whirlpool([position(a, 5_001n), position(b, 4_999n)])])?.evidence.owner, a);
    assert.equal(
      hitOf([whirlpool([position(a, 4_999n), position(b, 4_999n), position(null, 2n)])]),
      undefined,
    );
  });

  it('ramps to full strength at 90 %, and sums one wallet over its positions', async () => {
    const [a, b] = [await wallet(), await wallet()];
    const hit = hitOf([whirlpool([position(a, 45n), position(a, 45n), position(b, 10n)])]);
    assert.equal(hit?.strength, 1);
    assert.deepEqual(
      {
        share: hit?.evidence.share,
        owner_positions: hit?.evidence.owner_positions,
        counted: hit?.evidence.positions_counted,
      },
      { share: 0.9, owner_positions: 2, counted: 3 },
    );
    const half = hitOf([whirlpool([position(a, 1n), position(b, 1n)])]);
    assert.ok((half?.strength ?? 0) > 0 && (half?.strength ?? 1) < 0.05, String(half?.strength));
  });

  it('counts in-range liquidity only: a large position out of range does not dilute the one that trades', async () => {
    const [a, b] = [await wallet(), await wallet()];
    // b's position [100, 200) does not hold tick 0; a's [-100, 100) does (upper bound exclusive).
    const pool = whirlpool([
      position(a, 10n),
      position(b, 1_000_000n, 100, 200),
      position(b, 1_000_000n, -200, 0),
    ]);
    const hit = hitOf([pool]);
    assert.equal(hit?.evidence.owner, a);
    assert.equal(hit?.evidence.share, 1);
    assert.equal(hit?.evidence.measure, 'in-range liquidity');
  });

  it('DLMM counts every bin of every position (value, not the active bin)', async () => {
    const [a, b] = [await wallet(), await wallet()];
    const dlmm: PoolPositions = {
      dex: 'meteora-dlmm',
      pool: POOL,
      current: 0,
      errors: [],
      positions: [position(a, 30n, 10, 20), position(b, 70n, -5, 5)],
    };
    assert.equal(hitOf([dlmm])?.evidence.owner, b);
    assert.equal(hitOf([dlmm])?.evidence.measure, 'liquidity shares over all bins');
  });

  it('a program-held position (locker, vault) is not a wallet that can pull it', async () => {
    const [locker] = await getProgramDerivedAddress({
      programAddress: ORCA_WHIRLPOOL_PROGRAM,
      seeds: ['lock'],
    });
    const a = await wallet();
    assert.equal(hitOf([whirlpool([position(locker, 95n), position(a, 5n)])]), undefined);
    const byPool = assessPositions(facts(whirlpool([position(locker, 95n), position(a, 5n)]))).byPool;
    assert.deepEqual(
      (byPool.get(POOL) as PoolOwnership).owners.map((o) => o.wallet),
      [false, true],
    );
  });
});

describe('position_owners summary', () => {
  it('names the ten largest owners and counts them all (a popular pool has thousands)', async () => {
    const wallets = await Promise.all(Array.from({ length: 12 }, wallet));
    const o = assessPositions(
      facts(whirlpool(wallets.map((w, i) => position(w, BigInt(100 + i))))),
    ).byPool.get(POOL) as PoolOwnership;
    assert.equal(o.owners.length, MAX_OWNERS_SHOWN);
    assert.equal(o.owners_total, 12);
    assert.equal(o.owners[0]?.owner, wallets[11]);
    assert.equal(o.positions_counted, 12);
  });
});

describe('LIQUIDITY_OWNERS_UNAVAILABLE', () => {
  it('positions refused, or the pool unread: confidence drops, risk does not move', async () => {
    const refused = hitOf([whirlpool(null)], 'LIQUIDITY_OWNERS_UNAVAILABLE');
    assert.match(String(refused?.evidence.reason), /refused/);
    assert.deepEqual(refused?.evidence.pools, [POOL]);
    assert.ok(hitOf([whirlpool([position(await wallet(), 1n)], null)], 'LIQUIDITY_OWNERS_UNAVAILABLE'));
    const hits = assessPositions(facts(whirlpool(null))).hits;
    assert.equal(combineRisk(hits, TOKEN_FLAGS), 0);
    assert.ok(combineConfidence(hits, TOKEN_FLAGS) < 1);
  });

  it('an NFT owner lookup that failed: the share is unknown, unless a wallet is already over the line', async () => {
    const a = await wallet();
    const failed = (positions: PositionRead[]): PoolPositions => ({
      ...whirlpool(positions),
      errors: ['getTokenLargestAccounts: rate limited'],
    });
    const unknown = hitOf([failed([position(null, 60n), position(a, 40n)])], 'LIQUIDITY_OWNERS_UNAVAILABLE');
    assert.match(String(unknown?.evidence.reason), /rate limited/);
    const outcome = assessPositions(facts(failed([position(a, 60n), position(null, 40n)])));
    assert.deepEqual(
      outcome.hits.map((h) => h.code),
      ['LIQUIDITY_OWNER_CONCENTRATED'],
    );
  });

  it('no concentrated pool: no flag and nothing reported', () => {
    const outcome = assessPositions(undefined);
    assert.deepEqual(outcome.hits, []);
    assert.equal(outcome.calls, 0);
  });
});

describe('position flags', () => {
  it('every position flag has a raising test above, with its catalog evidence keys', () => {
    assert.deepEqual([...raised].sort(), Object.keys(POSITION_FLAGS).sort());
  });
});

describe('position_owners of a concentrated pool whose positions were not listed', () => {
  const pairDump = loadAccount('meteora-dlmm-lbpair-7ubS3Gcc.json');
  const pair = expectDecoded(decodeLbPair(pairDump.data));
  /** The markets summary of a token whose one market is the real DLMM pair, with `positions` as read. */
  const ownersText = (positions: PositionFacts) => {
    const liquidity: LiquidityFacts = {
      discovery: {
        mint: pair.mintA,
        candidates: [pairDump.address],
        speculative: [],
        speculativeLargest: [],
        unlocated: [],
      },
      reads: { accounts: new Map([[pairDump.address, { ...pairDump }]]), largest: new Map() },
      rounds: 1,
      errors: [],
      incomplete: false,
      positions,
    };
    const outcome = assessLiquidity(liquidity, { supply: 10n ** 15n, decimals: 6 } as DecodedMint);
    return (outcome.summary.markets as { position_owners: string }[])[0]?.position_owners;
  };
  it(`a pool past the deepest ${MAX_POSITION_POOLS}: says so, not that DLMM pools are never listed`, () => {
    const text = ownersText({ pools: [], rounds: 1, calls: 3, pastCap: [pairDump.address] });
    assert.equal(
      text,
      `not read: positions are listed for its ${MAX_POSITION_POOLS} deepest concentrated pools only`,
    );
  });
  it('a trusted issuer: its pools are a whole market’s, no one wallet’s', () => {
    assert.match(
      ownersText({ pools: [], rounds: 0, calls: 0, trustedIssuer: true }) ?? '',
      /widely used token/,
    );
  });
  it('a pool not located from the largest holders: says where pools are located from', () => {
    assert.equal(
      ownersText({ pools: [], rounds: 0, calls: 0 }),
      'not read: positions are listed only for pools whose vault is among the largest holders',
    );
  });
});
