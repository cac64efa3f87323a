import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { decodeSquadsMultisig, SQUADS_MULTISIG_DISCRIMINATOR } from '../../src/solana/decoders/squads.js';
import { concat, key, u16, u32, u64, ZERO_KEY } from './bytes.js';
import { expectDecoded } from './fixtures.js';

const CREATE_KEY = 'HanXbAh9AngpUuzxJVH3FoQ9mEu3qPHQ62u6JtuoR7VS' as Address;
const CONFIG = '3etKXcW2fzEJR5YXoSKSmP6UZ633g9uiFv5yuqFUf66k' as Address;
const M1 = 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG' as Address;
const M2 = '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar' as Address;
const M3 = 'Q6XprfkF8RQQKoQVG33xT88H7wi8Uk1B1CC7YAs69Gi' as Address;

function multisigBytes(options: { configAuthority?: Address; rentCollector?: Address }): Uint8Array {
  return concat(
    SQUADS_MULTISIG_DISCRIMINATOR,
    key(CREATE_KEY),
    options.configAuthority ? key(options.configAuthority) : ZERO_KEY,
    u16(2),
    u32(86_400),
    u64(17n),
    u64(15n),
    options.rentCollector ? concat([1], key(options.rentCollector)) : [0],
    [254],
    u32(3),
    key(M1),
    [7],
    key(M2),
    [2],
    key(M3),
    [1],
  );
}

describe('decodeSquadsMultisig', () => {
  it('puts threshold at offset 72 and time lock at 74, as risk-research §2.7 says', () => {
    const data = multisigBytes({});
    assert.equal(new DataView(data.buffer).getUint16(72, true), 2);
    assert.equal(new DataView(data.buffer).getUint32(74, true), 86_400);
  });

  it('an autonomous 2-of-2-voters multisig', () => {
    assert.deepEqual(expectDecoded(decodeSquadsMultisig(multisigBytes({}))), {
      createKey: CREATE_KEY,
      configAuthority: null,
      threshold: 2,
      timeLockSeconds: 86_400,
      transactionIndex: 17n,
      staleTransactionIndex: 15n,
      rentCollector: null,
      bump: 254,
      members: [
        { key: M1, canInitiate: true, canVote: true, canExecute: true },
        { key: M2, canInitiate: false, canVote: true, canExecute: false },
        { key: M3, canInitiate: true, canVote: false, canExecute: false },
      ],
      voterCount: 2,
    });
  });

  it('a controlled multisig with a rent collector (variable-size Option shifts the members)', () => {
    const multisig = expectDecoded(
      decodeSquadsMultisig(multisigBytes({ configAuthority: CONFIG, rentCollector: M3 })),
    );
    assert.equal(multisig.configAuthority, CONFIG);
    assert.equal(multisig.rentCollector, M3);
    assert.equal(multisig.bump, 254);
    assert.deepEqual(
      multisig.members.map((member) => member.key),
      [M1, M2, M3],
    );
  });

  it('typed failures for foreign, short and cut-off data', () => {
    const data = multisigBytes({});
    const foreign = data.slice();
    foreign[0] = 0;
    const wrong = decodeSquadsMultisig(foreign);
    assert.equal(wrong.ok || wrong.reason, 'wrong-kind');
    const short = decodeSquadsMultisig(data.subarray(0, 60));
    assert.equal(short.ok || short.reason, 'truncated');
    const cut = decodeSquadsMultisig(data.subarray(0, data.length - 10));
    assert.equal(cut.ok || cut.reason, 'malformed');
  });

  it('the discriminator is sha256("account:Multisig")[0..8]', () => {
    const digest = createHash('sha256').update('account:Multisig').digest();
    assert.deepEqual([...digest.subarray(0, 8)], SQUADS_MULTISIG_DISCRIMINATOR);
  });
});
