import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AccountDumpError, parseAccountDump } from '../../src/solana/decoders/account-dump.js';
import { MAINNET_FIXTURES, readFixtureJson } from './fixtures.js';

const U64_MAX = 18_446_744_073_709_551_615n;

function dump(overrides: Record<string, unknown> = {}, account: Record<string, unknown> = {}) {
  return {
    pubkey: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    account: {
      lamports: 1_461_600,
      data: ['AQID', 'base64'],
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      executable: false,
      rentEpoch: 361,
      space: 3,
      ...account,
    },
    ...overrides,
  };
}

describe('parseAccountDump', () => {
  it('parses every real account dump, with data length equal to the stated space', () => {
    const files = readdirSync(new URL('accounts/', MAINNET_FIXTURES)).filter((file) =>
      file.endsWith('.json'),
    );
    assert.ok(files.length >= 40);
    for (const file of files) {
      const json = readFixtureJson(`accounts/${file}`) as { account: { space: number; lamports: number } };
      const parsed = parseAccountDump(json);
      assert.equal(parsed.data.length, json.account.space, file);
      assert.equal(parsed.lamports, BigInt(json.account.lamports), file);
    }
  });

  it('keeps the fields of a real dump, including u64::MAX rent epochs lost to JSON numbers', () => {
    const usdc = parseAccountDump(readFixtureJson('accounts/usdc-mint.json'));
    assert.equal(usdc.address, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    assert.equal(usdc.owner, 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    assert.equal(usdc.lamports, 377_875_865_511n);
    assert.equal(usdc.executable, false);
    assert.equal(usdc.rentEpoch, U64_MAX);
    assert.equal(usdc.data.length, 82);
    const program = parseAccountDump(readFixtureJson('accounts/marinade-program.json'));
    assert.equal(program.executable, true);
    assert.equal(program.rentEpoch, 206n);
  });

  it('decodes base64 data and accepts a dump without space', () => {
    const parsed = parseAccountDump(dump({}, { space: undefined }));
    assert.deepEqual([...parsed.data], [1, 2, 3]);
    assert.equal(parsed.rentEpoch, 361n);
  });

  const bad: [string, unknown][] = [
    ['not an object', 'hello'],
    ['a bad pubkey', dump({ pubkey: 'not-base58!' })],
    ['a bad owner', dump({}, { owner: '0OIl' })],
    ['another encoding', dump({}, { data: ['Ldp', 'base58'] })],
    ['non-base64 characters', dump({}, { data: ['AQ!D', 'base64'] })],
    ['a space mismatch', dump({}, { space: 4 })],
    ['negative lamports', dump({}, { lamports: -1 })],
    ['imprecise lamports', dump({}, { lamports: 2 ** 60 })],
    ['a missing executable flag', dump({}, { executable: undefined })],
  ];
  for (const [what, input] of bad) {
    it(`rejects ${what} with an AccountDumpError`, () => {
      assert.throws(() => parseAccountDump(input), AccountDumpError);
    });
  }
});
