/**
 * Locker decoders: Jupiter Lock's VestingEscrow on a real escrow's bytes (fixtures/mainnet/PROVENANCE.md),
 * its release schedule as the program computes it, and Meteora DAMM v1's LockEscrow on bytes built
 * from the published IDL (no real account was found in a public fixture). Both refuse other kinds.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import {
  encodeLockEscrow,
  encodeVestingEscrow,
} from '../../../src/sandbox/scenarios/builders/locker-layouts.js';
import {
  decodeVestingEscrow,
  fullyUnlockedAt,
  unlockedBy,
  VESTING_ESCROW_DISCRIMINATOR,
} from '../../../src/solana/decoders/jupiter-lock.js';
import {
  decodeLockEscrow,
  LOCK_ESCROW_DISCRIMINATOR,
} from '../../../src/solana/decoders/meteora-lock-escrow.js';
import { JUPITER_LOCK_PROGRAM } from '../../../src/solana/programs.js';
import { expectDecoded, loadAccount } from '../fixtures.js';

const discriminatorOf = (name: string) => [
  ...createHash('sha256').update(`account:${name}`).digest().subarray(0, 8),
];

describe('Jupiter Lock VestingEscrow (real escrow of 91vg3y8H…)', () => {
  const dump = loadAccount('jupiter-lock-vesting-escrow-91vg3y8H.json');

  it('decodes every field to the values the source states', () => {
    assert.equal(dump.owner, JUPITER_LOCK_PROGRAM);
    const e = expectDecoded(decodeVestingEscrow(dump.data));
    assert.equal(e.recipient, 'GWU4gnhaGPdhh4mcXudMpBXRUVJxqRPPXaSc8UkU2D3u');
    assert.equal(e.tokenMint, '91vg3y8HsmcShJARjpEMZBu5z2W5BwY4fdCj46QZCCnk');
    assert.equal(e.creator, 'FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM');
    assert.equal(e.base, '9fcau4PNu4JGuS5J8dqP2qJiQbzxu5KeV12a94khdTma');
    assert.equal(e.cancelMode, 1);
    assert.equal(e.cliffTime, 1_760_730_049n);
    assert.equal(e.frequency, 86_400n);
    assert.equal(e.cliffUnlockAmount, 0n);
    assert.equal(e.amountPerPeriod, 273_972_602_739_726n);
    assert.equal(e.numberOfPeriod, 1825n);
    assert.equal(e.totalClaimedAmount, 6n);
    assert.equal(e.vestingStartTime, 1_760_730_049n);
    assert.equal(e.cancelledAt, 0n);
  });

  it('releases on the program schedule: nothing before the cliff, a period a day, all after the last', () => {
    const e = expectDecoded(decodeVestingEscrow(dump.data));
    assert.equal(unlockedBy(e, e.cliffTime - 1n), 0n);
    assert.equal(unlockedBy(e, e.cliffTime), 0n);
    assert.equal(unlockedBy(e, e.cliffTime + 86_399n), 0n);
    assert.equal(unlockedBy(e, e.cliffTime + 86_400n), e.amountPerPeriod);
    assert.equal(fullyUnlockedAt(e), 1_760_730_049n + 86_400n * 1825n);
    assert.equal(unlockedBy(e, fullyUnlockedAt(e) + 10n ** 6n), e.amountPerPeriod * 1825n);
  });

  it('the sandbox encoder writes the same layout the real bytes have', () => {
    const e = expectDecoded(decodeVestingEscrow(dump.data));
    const bytes = encodeVestingEscrow({ ...e, escrowBump: 254 });
    const again = expectDecoded(decodeVestingEscrow(bytes));
    assert.deepEqual(again, e);
    assert.equal(bytes.length, dump.data.length);
  });

  it('refuses other accounts and truncated bytes', () => {
    assert.deepEqual([...VESTING_ESCROW_DISCRIMINATOR], discriminatorOf('VestingEscrow'));
    assert.equal(decodeVestingEscrow(new Uint8Array(296)).ok, false);
    const short = decodeVestingEscrow(dump.data.subarray(0, 200));
    assert.equal(short.ok ? 'decoded' : short.reason, 'truncated');
  });
});

describe('Meteora DAMM v1 LockEscrow (bytes built from the published IDL)', () => {
  it('decodes pool, owner, escrow vault and locked amount; refuses other kinds', async () => {
    const [pool, owner, vault] = await Promise.all(
      [0, 1, 2].map(async () => (await generateKeyPairSigner()).address),
    );
    assert.deepEqual([...LOCK_ESCROW_DISCRIMINATOR], discriminatorOf('LockEscrow'));
    const bytes = encodeLockEscrow({
      pool: pool!,
      owner: owner!,
      escrowVault: vault!,
      bump: 255,
      totalLockedAmount: 123n,
    });
    assert.equal(bytes.length, 8 + 96 + 1 + 8 + 16 + 24 + 7);
    assert.deepEqual(expectDecoded(decodeLockEscrow(bytes)), {
      pool,
      owner,
      escrowVault: vault,
      totalLockedAmount: 123n,
    });
    assert.equal(decodeLockEscrow(encodeVestingEscrowLike()).ok, false);
  });
});

function encodeVestingEscrowLike(): Uint8Array {
  const out = new Uint8Array(296);
  out.set(VESTING_ESCROW_DISCRIMINATOR);
  return out;
}
