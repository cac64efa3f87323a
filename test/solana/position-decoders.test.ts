/**
 * Concentrated-liquidity position decoders on real mainnet bytes (fixtures/mainnet/PROVENANCE.md):
 * each decodes its pool, owner or NFT mint, range and liquidity to the values the source states,
 * the account's address is the PDA the program derives from the NFT mint, and other kinds of
 * account are refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { type Address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import {
  DLMM_POSITION_V2_DISCRIMINATOR,
  DLMM_POSITION_V2_HEAD,
  decodeDlmmPosition,
  decodeDlmmPositionHead,
} from '../../src/solana/decoders/meteora-dlmm-position.js';
import {
  decodeWhirlpoolPosition,
  WHIRLPOOL_POSITION_DISCRIMINATOR,
  WHIRLPOOL_POSITION_HEAD,
} from '../../src/solana/decoders/orca-whirlpool-position.js';
import {
  CLMM_PERSONAL_POSITION_DISCRIMINATOR,
  CLMM_PERSONAL_POSITION_HEAD,
  decodeClmmPersonalPosition,
} from '../../src/solana/decoders/raydium-clmm-position.js';
import { ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_CLMM_PROGRAM } from '../../src/solana/programs.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const discriminatorOf = (name: string) => [
  ...createHash('sha256').update(`account:${name}`).digest().subarray(0, 8),
];
const positionPda = async (program: Address, mint: Address) =>
  (
    await getProgramDerivedAddress({
      programAddress: program,
      seeds: ['position', getAddressEncoder().encode(mint)],
    })
  )[0];

describe('Orca Whirlpool Position (real position 8DWSUfcD… in the SOL/USDC pool Czfq3xZZ…)', () => {
  const dump = loadAccount('orca-whirlpool-position-8DWSUfcD.json');
  it('decodes its pool, NFT mint, tick range and liquidity', async () => {
    const p = expectDecoded(decodeWhirlpoolPosition(dump.data));
    assert.equal(p.whirlpool, 'Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE');
    assert.equal(p.positionMint, '5fU2niy2YiGUktHB5mYNJAh9iLZ6uu28D4mf9sfCKeNa');
    assert.deepEqual([p.tickLower, p.tickUpper], [-29_960, -21_728]);
    assert.equal(p.liquidity, 25_102_504_243n);
    assert.equal(await positionPda(ORCA_WHIRLPOOL_PROGRAM, p.positionMint), dump.address);
  });
  it('refuses a short account and another kind', () => {
    assert.deepEqual(WHIRLPOOL_POSITION_DISCRIMINATOR, discriminatorOf('Position'));
    assert.equal(decodeWhirlpoolPosition(dump.data.subarray(0, 215)).ok, false);
    assert.equal(decodeWhirlpoolPosition(loadAccount('orca-whirlpool-CGGNcohZ.json').data).ok, false);
  });
});

describe('Raydium CLMM PersonalPositionState (real position 4GkPbQ8V… in the SOL/USDC pool 3ucNos4N…)', () => {
  const dump = loadAccount('raydium-clmm-personal-position-4GkPbQ8V.json');
  it('decodes its pool, NFT mint, tick range and liquidity', async () => {
    const p = expectDecoded(decodeClmmPersonalPosition(dump.data));
    assert.equal(p.pool, '3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv');
    assert.equal(p.nftMint, 'GTm3sPWckSbP4QPjCMRjrfU7FqwurRx6RynfHYwCa2VW');
    assert.deepEqual([p.tickLower, p.tickUpper], [-28_304, -20_559]);
    assert.equal(p.liquidity, 64_563_576_460n);
    assert.equal(await positionPda(RAYDIUM_CLMM_PROGRAM, p.nftMint), dump.address);
  });
  it('refuses a short account and a pool state', () => {
    assert.deepEqual(CLMM_PERSONAL_POSITION_DISCRIMINATOR, discriminatorOf('PersonalPositionState'));
    assert.equal(decodeClmmPersonalPosition(dump.data.subarray(0, 280)).ok, false);
    assert.equal(decodeClmmPersonalPosition(loadAccount('raydium-clmm-pool-AcPS8Srz.json').data).ok, false);
  });
});

describe('Meteora DLMM PositionV2 (real position B9ouHFKE… in the pepo/SOL pair JEFz9hup…)', () => {
  const dump = loadAccount('meteora-dlmm-position-v2-B9ouHFKE.json');
  it('decodes its pair, owner and bin range; its liquidity was withdrawn (fees left)', () => {
    const p = expectDecoded(decodeDlmmPosition(dump.data));
    assert.equal(p.lbPair, 'JEFz9hupKysKAFPkySe7oubHzQ88xk87Eu3J92Ho1vnK');
    assert.equal(p.owner, 'AVi8HJEqZksYWoarp9JZiK1PRrbvjEvF3Qzv9UoP69MW');
    assert.deepEqual([p.lowerBinId, p.upperBinId], [-468, -436]);
    assert.equal(p.shares.length, 33);
    assert.ok(p.shares.every((s) => s === 0n));
  });
  it('reads a bin share as a u128 at its offset, and refuses a legacy Position and a short account', () => {
    assert.deepEqual(DLMM_POSITION_V2_DISCRIMINATOR, discriminatorOf('PositionV2'));
    const withShare = new Uint8Array(dump.data);
    withShare.set([1], 72 + 16 * 2 + 8); // bin lower+2 holds 2^64 shares
    assert.equal(expectDecoded(decodeDlmmPosition(withShare)).shares[2], 2n ** 64n);
    assert.equal(decodeDlmmPosition(dump.data.subarray(0, 8119)).ok, false);
    const legacy = new Uint8Array(dump.data);
    legacy.set(discriminatorOf('Position'), 0);
    assert.equal(decodeDlmmPosition(legacy).ok, false);
  });
});

describe('position heads (the dataSlice the scan asks for)', () => {
  it('the head of each real position holds every field the scan reads', () => {
    const orca = loadAccount('orca-whirlpool-position-8DWSUfcD.json').data;
    const padded = (head: Uint8Array, size: number) => {
      const full = new Uint8Array(size);
      full.set(head);
      return full;
    };
    assert.deepEqual(
      expectDecoded(decodeWhirlpoolPosition(padded(orca.subarray(0, WHIRLPOOL_POSITION_HEAD), 216))),
      expectDecoded(decodeWhirlpoolPosition(orca)),
    );
    const ray = loadAccount('raydium-clmm-personal-position-4GkPbQ8V.json').data;
    assert.deepEqual(
      expectDecoded(decodeClmmPersonalPosition(padded(ray.subarray(0, CLMM_PERSONAL_POSITION_HEAD), 281))),
      expectDecoded(decodeClmmPersonalPosition(ray)),
    );
    const met = loadAccount('meteora-dlmm-position-v2-B9ouHFKE.json').data;
    const head = expectDecoded(decodeDlmmPositionHead(met.subarray(0, DLMM_POSITION_V2_HEAD)));
    const full = expectDecoded(decodeDlmmPosition(met));
    assert.deepEqual([head.lbPair, head.owner, head.shares.length], [full.lbPair, full.owner, 70]);
    assert.equal(decodeDlmmPositionHead(met.subarray(0, DLMM_POSITION_V2_HEAD - 1)).ok, false);
  });
});
