/**
 * What the liquidity round reads for lockers (discover.ts `nextReads`): once an LP's largest holders
 * are read, the owner account of each holder owned by a program address — and nothing for a token
 * whose LP is burned, nor for holders that are wallets, the incinerator or Raydium's fixed lock.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, getProgramDerivedAddress } from '@solana/kit';
import { encodePumpSwapPool } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { type Discovery, nextReads } from '../../../src/scans/liquidity/discover.js';
import type { LargestAccount, RawAccount } from '../../../src/scans/token-facts/model.js';
import {
  INCINERATOR,
  JUPITER_LOCK_PROGRAM,
  PUMPSWAP_PROGRAM,
  RAYDIUM_CP_LOCK_AUTHORITY,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { mintBytes, raw, splTokenAccount } from '../../helpers/token-accounts.js';

const LP = 1_000_000n;

describe('nextReads: locker owner accounts', () => {
  let keys: Address[];
  let pool: Address;
  let escrow: Address;
  let discovery: Discovery;

  before(async () => {
    keys = await Promise.all(Array.from({ length: 12 }, async () => (await generateKeyPairSigner()).address));
    [pool] = await getProgramDerivedAddress({ programAddress: PUMPSWAP_PROGRAM, seeds: ['pool'] });
    [escrow] = await getProgramDerivedAddress({ programAddress: JUPITER_LOCK_PROGRAM, seeds: ['escrow'] });
    discovery = {
      mint: keys[0]!,
      candidates: [pool],
      speculative: [],
      speculativeLargest: [],
      unlocated: [],
    };
  });

  /** Reads after the LP's largest holders and their token accounts came back. */
  function readsWith(lpMintSupply: bigint, holders: { owner: Address; amount: bigint }[]) {
    const [, baseVault, quoteVault, lpMint] = keys as [Address, Address, Address, Address];
    const accounts = new Map<Address, RawAccount | null>([
      [
        pool,
        raw(
          pool,
          PUMPSWAP_PROGRAM,
          encodePumpSwapPool({
            poolBump: 255,
            index: 0,
            creator: keys[5]!,
            baseMint: keys[0]!,
            quoteMint: WSOL_MINT,
            lpMint,
            poolBaseTokenAccount: baseVault,
            poolQuoteTokenAccount: quoteVault,
            lpSupply: LP,
            coinCreator: keys[5]!,
          }),
        ),
      ],
      [baseVault, splTokenAccount(baseVault, keys[0]!, pool, 1n)],
      [quoteVault, splTokenAccount(quoteVault, WSOL_MINT, pool, 1n)],
      [lpMint, raw(lpMint, TOKEN_PROGRAM, mintBytes({ supply: lpMintSupply }).data)],
    ]);
    const largest: LargestAccount[] = holders.map((h, i) => {
      const address = keys[6 + i]!;
      accounts.set(address, splTokenAccount(address, lpMint, h.owner, h.amount));
      return { address, amount: h.amount };
    });
    return { accounts, largest: new Map([[lpMint, lpMintSupply > 0n ? largest : null]]) };
  }

  it('reads the owner of an LP holder owned by a program address, once, in the next round', () => {
    const want = nextReads(discovery, readsWith(LP, [{ owner: escrow, amount: LP }]));
    assert.deepEqual(want.accounts, [escrow]);
    assert.deepEqual(want.largestOf, []);
  });

  it('reads nothing more for wallets, the incinerator, Raydium’s fixed lock, or a burned LP', () => {
    const known = readsWith(LP, [
      { owner: keys[10]!, amount: LP / 2n },
      { owner: INCINERATOR, amount: LP / 4n },
      { owner: RAYDIUM_CP_LOCK_AUTHORITY, amount: LP / 4n },
    ]);
    assert.deepEqual(nextReads(discovery, known).accounts, []);
    const burned = readsWith(0n, []);
    assert.deepEqual(nextReads(discovery, burned), { accounts: [], largestOf: [], searches: [] });
  });
});
