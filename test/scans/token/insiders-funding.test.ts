/**
 * fundingOf reads who sent a wallet SOL in one getTransaction answer, and never throws on a
 * malformed one; a hop of the trace names an answer it cannot use as a cut, never as "funded by
 * no one" (the RPC here only injects the malformed answers).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bs58 from 'bs58';
import { boundedSend } from '../../../src/scans/liquidity/bounded-search.js';
import { fundingOf } from '../../../src/scans/token/insiders/funding.js';
import { FundingReads } from '../../../src/scans/token/insiders/trace.js';
import type { SolanaRpc } from '../../../src/solana/rpc.js';

const SYSTEM = '11111111111111111111111111111111';
const FUNDER = '5tzFkiKscXHK5ZXCGbXZxdw7gTjjD1mBwuoFbhUvuAi9';
const WALLET = 'H1fK4bLa4m9X9GdbJQVvhEdyaJsX3XkhvppJ6nVCJdrm';

/** A System transfer of 1 SOL from FUNDER to WALLET, its instruction data as given. */
function transfer(data: string) {
  return {
    slot: 1,
    blockTime: 1_700_000_000,
    transaction: {
      signatures: ['sig'],
      message: {
        header: { numRequiredSignatures: 1 },
        accountKeys: [FUNDER, WALLET, SYSTEM],
        instructions: [{ programIdIndex: 2, accounts: [0, 1], data }],
      },
    },
    meta: { err: null, preBalances: [2e9, 0, 1], postBalances: [1e9, 1e9, 1] },
  };
}

const TRANSFER_DATA = (() => {
  const bytes = new Uint8Array(12);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 2, true);
  view.setBigUint64(4, 1_000_000_000n, true);
  return bs58.encode(bytes);
})();

describe('fundingOf', () => {
  it('names the sender of a System transfer to the wallet', () => {
    assert.equal(fundingOf(transfer(TRANSFER_DATA), WALLET, null)?.funder, FUNDER);
  });

  it('an instruction whose data is not base58 funds nobody, and the answer is still read', () => {
    const read = fundingOf(transfer('0OIl not base58'), WALLET, null);
    assert.ok(read !== null);
    assert.equal(read.funder, null);
    assert.equal(read.blockTime, 1_700_000_000);
  });

  it('a number that is not an integer makes the answer unreadable (null), not a throw', () => {
    assert.equal(fundingOf({ ...transfer(TRANSFER_DATA), slot: 1.5 }, WALLET, null), null);
  });
});

/** An RPC answering getSignaturesForAddress and getTransaction with what it is given. */
function answering(page: unknown, transaction: unknown): SolanaRpc {
  const call = (value: unknown) => ({ send: async () => value });
  return {
    getSignaturesForAddress: () => call(page),
    getTransaction: () => call(transaction),
  } as unknown as SolanaRpc;
}

describe('a hop of the funding trace, on answers it cannot use', () => {
  const hop = (page: unknown, transaction: unknown) =>
    new FundingReads(answering(page, transaction), 'Mint', boundedSend(undefined, 4_000), new Set()).hop([
      { wallet: WALLET, touch: 'none', touchedAt: null },
    ]);
  const onePage = [{ signature: 'sig', err: null, blockTime: 1_700_000_000n }];
  const cases: [string, unknown, unknown, RegExp][] = [
    [
      'a signature page that is not a list',
      null,
      null,
      /getSignaturesForAddress: an answer that is not a list/,
    ],
    ['a page of entries without signatures', [{ err: null }], null, /not a list of signatures/],
    ['a listed transaction not served', onePage, null, /getTransaction: a listed transaction was not served/],
    ['a transaction that cannot be read', onePage, { slot: 'x' }, /not a readable transaction/],
  ];
  for (const [name, page, transaction, cut] of cases) {
    it(`${name}: cut, as a refusal`, async () => {
      const [found] = await hop(page, transaction);
      assert.equal(found?.funder, null);
      assert.match(found?.cut ?? '', cut);
      assert.equal(found?.refused, true);
    });
  }
  it('a readable transfer still names its funder', async () => {
    const [found] = await hop(onePage, transfer(TRANSFER_DATA));
    assert.equal(found?.funder, FUNDER);
  });
});
