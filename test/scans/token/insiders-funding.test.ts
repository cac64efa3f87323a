/** fundingOf reads who sent a wallet SOL in one getTransaction answer, and never throws on a malformed one. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bs58 from 'bs58';
import { fundingOf } from '../../../src/scans/token/insiders/funding.js';

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
});
