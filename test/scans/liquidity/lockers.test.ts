/**
 * classifyLpHolder at its boundaries: a Jupiter Lock escrow's schedule (what releases within 7
 * days, less what was claimed, is pullable by the recipient), an escrow for another mint, a
 * self-owned token account (as Streamflow's escrow is), an owner not read, a program not known.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, getProgramDerivedAddress } from '@solana/kit';
import {
  encodeVestingEscrow,
  type VestingEscrowFields,
} from '../../../src/sandbox/scenarios/builders/locker-layouts.js';
import { classifyLpHolder, type LpHolder } from '../../../src/scans/liquidity/lockers.js';
import { UNLOCK_HORIZON_SECONDS } from '../../../src/scans/liquidity/thresholds.js';
import { JUPITER_LOCK_PROGRAM, PUMPSWAP_PROGRAM } from '../../../src/solana/programs.js';
import { raw } from '../../helpers/token-accounts.js';

const NOW = 1_800_000_000;
const STREAMFLOW = 'strmRqUCoQUgGUan5YhzUZa6KqdzwX5L6FpUxfmKg5m' as Address;
const DAY = 86_400;

describe('classifyLpHolder', () => {
  let keys: Address[];
  let holder: LpHolder;
  let escrow: (fields: Partial<VestingEscrowFields>) => ReturnType<typeof raw>;

  before(async () => {
    keys = await Promise.all(Array.from({ length: 8 }, async () => (await generateKeyPairSigner()).address));
    // The escrow is a PDA: an on-curve owner is a wallet whatever account it has.
    [keys[2]] = await getProgramDerivedAddress({ programAddress: JUPITER_LOCK_PROGRAM, seeds: ['escrow'] });
    holder = { address: keys[0]!, mint: keys[1]!, owner: keys[2]!, amount: 1_000n };
    escrow = (fields) =>
      raw(
        keys[2]!,
        JUPITER_LOCK_PROGRAM,
        encodeVestingEscrow({
          recipient: keys[3]!,
          tokenMint: keys[1]!,
          creator: keys[4]!,
          base: keys[5]!,
          escrowBump: 255,
          cancelMode: 0,
          cliffTime: BigInt(NOW - 10 * DAY),
          frequency: BigInt(DAY),
          cliffUnlockAmount: 0n,
          amountPerPeriod: 10n,
          numberOfPeriod: 100n,
          ...fields,
        }),
      );
  });

  it('a vesting lock: what releases within 7 days, less what was claimed, is pullable by the recipient', () => {
    // 10 periods passed (100 units), 7 more within the horizon (70): 170 released, 100 claimed → 70 pullable.
    const h = classifyLpHolder({ ...holder, amount: 900n }, escrow({ totalClaimedAmount: 100n }), NOW);
    assert.equal(h.kind, 'locked');
    if (h.kind !== 'locked') return;
    assert.equal(h.pullable, 70n);
    assert.equal(h.pullableBy, keys[3]);
    // The cliff is past: the next release is the 11th period's end, tomorrow.
    assert.equal(h.unlocksAt, NOW + DAY);
    assert.equal(h.fullyUnlocksAt, NOW - 10 * DAY + 100 * DAY);
  });

  it('the next release: the cliff while ahead (or the first period when the cliff releases nothing), none once all is out; periods with no length never complete', () => {
    const at = (fields: Partial<VestingEscrowFields>) => {
      const h = classifyLpHolder(holder, escrow(fields), NOW);
      return h.kind === 'locked' ? [h.unlocksAt, h.fullyUnlocksAt] : h.kind;
    };
    assert.deepEqual(at({ cliffTime: BigInt(NOW + 30 * DAY) }), [NOW + 31 * DAY, NOW + 130 * DAY]);
    assert.deepEqual(at({ cliffTime: BigInt(NOW + 30 * DAY), cliffUnlockAmount: 5n }), [
      NOW + 30 * DAY,
      NOW + 130 * DAY,
    ]);
    // Exactly on a period's end, the next one is a period later.
    assert.deepEqual(at({ cliffTime: BigInt(NOW - 2 * DAY) }), [NOW + DAY, NOW + 98 * DAY]);
    assert.deepEqual(at({ cliffTime: BigInt(NOW - 200 * DAY) }), [null, NOW - 100 * DAY]);
    // No period length: the cliff is all that ever releases; the periods' tokens never do.
    assert.deepEqual(at({ cliffTime: BigInt(NOW + DAY), frequency: 0n, cliffUnlockAmount: 5n }), [
      NOW + DAY,
      null,
    ]);
    assert.deepEqual(at({ cliffTime: BigInt(NOW - DAY), frequency: 0n, cliffUnlockAmount: 5n }), [
      null,
      null,
    ]);
    // Periods that release nothing leave only the cliff; a cancelled escrow releases nothing more.
    assert.deepEqual(at({ cliffTime: BigInt(NOW + DAY), cliffUnlockAmount: 5n, amountPerPeriod: 0n }), [
      NOW + DAY,
      NOW + DAY,
    ]);
    assert.deepEqual(at({ cliffTime: BigInt(NOW + DAY), cancelledAt: BigInt(NOW - DAY) }), [null, null]);
  });

  it('a cliff one second past the horizon releases nothing; at the horizon, all of it', () => {
    const cliff = (at: number) =>
      escrow({ cliffTime: BigInt(at), frequency: 0n, cliffUnlockAmount: 1_000n, numberOfPeriod: 0n });
    const shut = classifyLpHolder(holder, cliff(NOW + UNLOCK_HORIZON_SECONDS + 1), NOW);
    assert.equal(shut.kind === 'locked' && shut.pullable, 0n);
    const open = classifyLpHolder(holder, cliff(NOW + UNLOCK_HORIZON_SECONDS), NOW);
    assert.equal(open.kind === 'locked' && open.pullable, 1_000n);
  });

  it('LP sent to an escrow whose schedule is (or is within 7 days of being) complete is pullable whole: the creator closes it and takes the balance', () => {
    // A 1-unit lock, claimed, then the whole LP sent to its token account: the fake lock.
    const spent = escrow({
      frequency: 0n,
      cliffUnlockAmount: 1n,
      numberOfPeriod: 0n,
      totalClaimedAmount: 1n,
    });
    const h = classifyLpHolder(holder, spent, NOW);
    assert.ok(
      h.kind === 'locked' && h.pullable === 1_000n && h.pullableBy === keys[4],
      JSON.stringify(h, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
    // A schedule ending one second past the horizon still locks what it has not released.
    const later = escrow({
      cliffTime: BigInt(NOW + UNLOCK_HORIZON_SECONDS + 1),
      frequency: 0n,
      cliffUnlockAmount: 1_000n,
      numberOfPeriod: 0n,
    });
    const l = classifyLpHolder(holder, later, NOW);
    assert.equal(l.kind === 'locked' && l.pullable, 0n);
  });

  it('a cancelled escrow, or one that can be cancelled, is pullable whole by the creator', () => {
    for (const fields of [{ cancelMode: 2 }, { cancelledAt: BigInt(NOW - DAY) }]) {
      const h = classifyLpHolder(holder, escrow({ cliffTime: BigInt(NOW + 400 * DAY), ...fields }), NOW);
      assert.ok(
        h.kind === 'locked' && h.pullable === 1_000n && h.pullableBy === keys[4],
        Object.keys(fields).join(),
      );
    }
  });

  it('not a lock: an escrow for another mint, a self-owned account, an owner not read, an unknown program', async () => {
    const otherMint = classifyLpHolder(holder, escrow({ tokenMint: keys[6]! }), NOW);
    assert.deepEqual(otherMint, {
      kind: 'program',
      program: JUPITER_LOCK_PROGRAM,
      why: 'a program address of a program not known as a locker',
    });
    // Streamflow's escrow token account: a PDA ["strm", metadata] that is its own authority.
    const [streamEscrow] = await getProgramDerivedAddress({
      programAddress: STREAMFLOW,
      seeds: ['strm', 'x'],
    });
    const self = classifyLpHolder({ ...holder, address: streamEscrow, owner: streamEscrow }, undefined, NOW);
    assert.match(self.kind === 'program' ? self.why : '', /Streamflow/);
    assert.deepEqual(classifyLpHolder(holder, undefined, NOW), {
      kind: 'program',
      program: null,
      why: 'its owner was not read',
    });
    const unknown = classifyLpHolder(holder, raw(keys[2]!, PUMPSWAP_PROGRAM, new Uint8Array(8)), NOW);
    assert.equal(unknown.kind === 'program' && unknown.program, PUMPSWAP_PROGRAM);
  });
});
