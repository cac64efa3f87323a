import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { decodeTokenAccount } from '../../src/solana/decoders/token-account.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT, WSOL_MINT } from '../../src/solana/programs.js';
import { concat, extendedAccount, key, tlv, u32, u64, ZERO_KEY } from './bytes.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const HOLDER = 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG' as Address;
const SPENDER = '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar' as Address;

/** A 165-byte token account written at the offsets of risk-research §2.2. */
function tokenAccount(options: {
  mint?: Address;
  amount?: bigint;
  delegate?: Address | null;
  staleDelegate?: Address;
  state?: number;
  isNative?: bigint | null;
  delegatedAmount?: bigint;
  closeAuthority?: Address | null;
}): Uint8Array {
  const delegate = options.delegate ?? null;
  const delegateBytes = delegate ?? options.staleDelegate;
  return concat(
    key(options.mint ?? USDC_MINT),
    key(HOLDER),
    u64(options.amount ?? 0n),
    u32(delegate ? 1 : 0),
    delegateBytes ? key(delegateBytes) : ZERO_KEY,
    [options.state ?? 1],
    u32(options.isNative == null ? 0 : 1),
    u64(options.isNative ?? 0n),
    u64(options.delegatedAmount ?? 0n),
    u32(options.closeAuthority ? 1 : 0),
    options.closeAuthority ? key(options.closeAuthority) : ZERO_KEY,
  );
}

describe('decodeTokenAccount', () => {
  it('a real Token-2022 account with ImmutableOwner and ConfidentialTransferAccount', () => {
    const account = loadAccount('t22-confidential-token-account-A9JXuXgm.json');
    const decoded = expectDecoded(decodeTokenAccount(account.data, account.owner));
    assert.equal(decoded.program, 'token-2022');
    assert.equal(decoded.mint, '5nWfeifw56n8mhpLp4b3BHW2foLdbF9PCo4Y6MJPdyEB');
    assert.equal(decoded.owner, '7a8aotmeu1J11XCBBmXUorDeTDbVmxfBY23C4GUxvqVy');
    assert.equal(decoded.amount, 0n);
    assert.equal(decoded.state, 'initialized');
    assert.equal(decoded.delegate, null);
    assert.equal(decoded.isNative, null);
    assert.equal(decoded.closeAuthority, null);
    assert.deepEqual(
      decoded.extensions.present.map(({ type, name }) => [type, name]),
      [
        [7, 'ImmutableOwner'],
        [5, 'ConfidentialTransferAccount'],
      ],
    );
    assert.equal(decoded.extensions.immutableOwner, true);
    assert.equal(decoded.extensions.confidentialTransfer, true);
    assert.equal(decoded.extensions.withheldTransferFee, null);
  });

  it('a frozen SPL account with a delegate and a close authority', () => {
    const data = tokenAccount({
      amount: 5_000_000n,
      delegate: SPENDER,
      delegatedAmount: 1_000_000n,
      state: 2,
      closeAuthority: SPENDER,
    });
    const decoded = expectDecoded(decodeTokenAccount(data, TOKEN_PROGRAM));
    assert.deepEqual(decoded, {
      program: 'spl-token',
      mint: USDC_MINT,
      owner: HOLDER,
      amount: 5_000_000n,
      delegate: SPENDER,
      delegatedAmount: 1_000_000n,
      state: 'frozen',
      isNative: null,
      closeAuthority: SPENDER,
      extensions: {
        present: [],
        undecodable: [],
        tlvComplete: true,
        withheldTransferFee: null,
        immutableOwner: false,
        requireIncomingTransferMemos: false,
        cpiGuardLocked: false,
        confidentialTransfer: false,
      },
    });
  });

  it('a revoked delegate with stale key bytes is no delegate', () => {
    const data = tokenAccount({ staleDelegate: SPENDER });
    assert.notDeepEqual([...data.subarray(76, 108)], [...ZERO_KEY]);
    assert.equal(expectDecoded(decodeTokenAccount(data, TOKEN_PROGRAM)).delegate, null);
  });

  it('a wrapped-SOL account reports its rent-exempt reserve', () => {
    const data = tokenAccount({ mint: WSOL_MINT, amount: 3_000_000n, isNative: 2_039_280n });
    assert.equal(expectDecoded(decodeTokenAccount(data, TOKEN_PROGRAM)).isNative, 2_039_280n);
  });

  it('reads the account extensions that change how a holding behaves', () => {
    const data = extendedAccount(
      tokenAccount({ amount: 10n }),
      2,
      tlv(2, u64(42n)),
      tlv(8, new Uint8Array([1])),
      tlv(11, new Uint8Array([1])),
      tlv(77, new Uint8Array(4)),
    );
    const decoded = expectDecoded(decodeTokenAccount(data, TOKEN_2022_PROGRAM));
    assert.equal(decoded.amount, 10n);
    assert.equal(decoded.extensions.withheldTransferFee, 42n);
    assert.equal(decoded.extensions.requireIncomingTransferMemos, true);
    assert.equal(decoded.extensions.cpiGuardLocked, true);
    assert.deepEqual(
      decoded.extensions.present.map(({ type, name }) => [type, name]),
      [
        [2, 'TransferFeeAmount'],
        [8, 'MemoTransfer'],
        [11, 'CpiGuard'],
        [77, null],
      ],
    );
  });

  it('turns the wrong kind of account and bad bytes into typed failures', () => {
    const usdcMint = loadAccount('usdc-mint.json');
    const mint = decodeTokenAccount(usdcMint.data, usdcMint.owner);
    assert.equal(mint.ok || mint.reason, 'wrong-kind');
    const t22Mint = loadAccount('pump-v2-t22-mint-Fw5xoxp3.json');
    const extendedMint = decodeTokenAccount(t22Mint.data, t22Mint.owner);
    assert.equal(extendedMint.ok || extendedMint.reason, 'wrong-kind');
    const owner = decodeTokenAccount(tokenAccount({}), USDC_MINT);
    assert.equal(owner.ok || owner.reason, 'wrong-owner');
    const truncated = decodeTokenAccount(tokenAccount({}).subarray(0, 100), TOKEN_PROGRAM);
    assert.equal(truncated.ok || truncated.reason, 'truncated');
    const badState = decodeTokenAccount(tokenAccount({ state: 3 }), TOKEN_PROGRAM);
    assert.equal(badState.ok || badState.reason, 'malformed');
    const badTag = tokenAccount({});
    badTag.set(u32(7), 72);
    const badTagResult = decodeTokenAccount(badTag, TOKEN_PROGRAM);
    assert.equal(badTagResult.ok || badTagResult.reason, 'malformed');
    const multisig = decodeTokenAccount(new Uint8Array(355), TOKEN_PROGRAM);
    assert.equal(multisig.ok || multisig.reason, 'wrong-kind');
  });
});
