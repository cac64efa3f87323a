/** The creator's curves read by getMultipleAccounts are keyed by the addresses asked for, never by the answer's length. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { encodeBondingCurve } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { readCurves } from '../../../src/scans/creator-history/launch-curves.js';
import { PUMP_PROGRAM } from '../../../src/solana/programs.js';
import type { SolanaRpc } from '../../../src/solana/rpc.js';

const CREATOR = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' as Address;
const FIRST = 'So11111111111111111111111111111111111111112';
const SECOND = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const curveAccount = () => ({
  owner: PUMP_PROGRAM,
  lamports: 1_000_000n,
  data: [
    Buffer.from(
      encodeBondingCurve({
        virtualTokenReserves: 1n,
        virtualQuoteReserves: 1n,
        realTokenReserves: 1n,
        realQuoteReserves: 1n,
        tokenTotalSupply: 1n,
        complete: false,
        creator: CREATOR,
      }),
    ).toString('base64'),
    'base64',
  ],
});

/** An RPC whose getMultipleAccounts answers each call with `answer(addresses asked for)`. */
const answering = (answer: (asked: readonly string[]) => unknown[]) =>
  ({
    getMultipleAccounts: (asked: readonly string[]) => ({ send: async () => ({ value: answer(asked) }) }),
  }) as unknown as SolanaRpc;

const NO_BOUND = { send: {} } as Parameters<typeof readCurves>[3];

/** 101 distinct addresses: two getMultipleAccounts calls (100 + 1). */
const ADDRESSES = Array.from({ length: 101 }, (_, i) =>
  i === 100 ? SECOND : i === 99 ? FIRST : `${'1'.repeat(12)}${String(i).padStart(3, '1')}`,
);

describe('creator history: curves read by address', () => {
  it("a short answer to the first call never moves the second call's curve onto another address", async () => {
    // The first call's answer is one value short; the second call's one value is SECOND's curve.
    const rpc = answering((asked) =>
      asked.length === 100 ? Array.from({ length: 99 }, () => null) : [curveAccount()],
    );
    const curves = await readCurves(rpc, ADDRESSES, CREATOR, NO_BOUND);
    assert.deepEqual(
      curves.map((c) => c.address),
      [SECOND],
    );
  });

  it('a long answer never names an address nobody asked for', async () => {
    const rpc = answering(() => [curveAccount(), curveAccount()]);
    const curves = await readCurves(rpc, [FIRST], CREATOR, NO_BOUND);
    assert.deepEqual(
      curves.map((c) => c.address),
      [FIRST],
    );
  });
});
