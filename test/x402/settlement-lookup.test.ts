/**
 * The chain lookup that decides an ambiguous settlement. "It did not land" is what lets the
 * service say "nothing was charged": it may be said only after every transaction payTo's account
 * saw since the payment could have landed was read. The RPC here is a fake that serves a history
 * and fails where a test says so.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { address, generateKeyPairSigner, getBase64Encoder, getTransactionDecoder } from '@solana/kit';
import type { SolanaRpc } from '../../src/solana/rpc.js';
import { createSettlementLookup } from '../../src/x402/settlement-lookup.js';
import { offlinePaymentTransaction } from '../helpers/offline-payment.js';

const NOW = 1_800_000_000_000;

interface Entry {
  readonly signature: string;
  readonly blockTime: number;
  readonly transaction: string;
}

async function payment(): Promise<{ transaction: string; key: string }> {
  const [payer, payTo, feePayer] = await Promise.all([0, 1, 2].map(() => generateKeyPairSigner()));
  const transaction = await offlinePaymentTransaction({
    payer: payer!,
    payTo: payTo!.address,
    feePayer: feePayer!.address,
    amount: 20_000n,
  });
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
  const key = createHash('sha256')
    .update(tx.messageBytes as unknown as Uint8Array)
    .digest('hex');
  return { transaction, key };
}

/** payTo's history, newest first, one entry a second back from NOW. */
async function history(length: number): Promise<Entry[]> {
  const others = await Promise.all(Array.from({ length }, () => payment()));
  return others.map((p, i) => ({
    signature: `sig${i}`,
    blockTime: Math.floor(NOW / 1000) - i,
    transaction: p.transaction,
  }));
}

function fakeRpc(entries: Entry[], options: { unreadable?: Set<string>; blockhashValid?: boolean } = {}) {
  const calls = { pages: 0, reads: 0 };
  const send = <T>(value: T) => ({ send: async () => value });
  const rpc = {
    isBlockhashValid: () => send({ value: options.blockhashValid ?? false }),
    getSignatureStatuses: () => send({ value: [null] }),
    getSignaturesForAddress: (_a: unknown, o: { limit: number; before?: string }) => {
      calls.pages++;
      const start = o.before === undefined ? 0 : entries.findIndex((e) => e.signature === o.before) + 1;
      return send(
        entries
          .slice(start, start + o.limit)
          .map((e) => ({ signature: e.signature, blockTime: BigInt(e.blockTime) })),
      );
    },
    getTransaction: (signature: string) => ({
      send: async () => {
        calls.reads++;
        if (options.unreadable?.has(signature)) throw new Error('429 Too Many Requests');
        const entry = entries.find((e) => e.signature === signature)!;
        return { transaction: [entry.transaction, 'base64'], meta: { err: null } };
      },
    }),
  };
  return { rpc: rpc as unknown as SolanaRpc, calls };
}

const PAY_TO_ACCOUNT = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
const hint = { signature: null, blockhash: 'h', since: NOW - 600_000 };

describe('settlement lookup', () => {
  it('finds a payment that landed behind 150 other sales, paging back through payTo’s history', async () => {
    const entries = await history(151);
    const ours = await payment();
    entries[150] = { ...entries[150]!, transaction: ours.transaction };
    const { rpc, calls } = fakeRpc(entries);
    const found = await createSettlementLookup(rpc, PAY_TO_ACCOUNT).find(ours.key, hint);
    assert.deepEqual(found, { state: 'landed', signature: 'sig150' });
    assert.equal(calls.pages, 2);
  });

  it('not found in a complete search after the blockhash expired: expired (nothing was charged)', async () => {
    const { rpc } = fakeRpc(await history(30));
    const found = await createSettlementLookup(rpc, PAY_TO_ACCOUNT).find((await payment()).key, hint);
    assert.equal(found.state, 'expired');
  });

  it('one transaction that could not be read: unknown, never expired', async () => {
    const { rpc } = fakeRpc(await history(30), { unreadable: new Set(['sig7']) });
    const found = await createSettlementLookup(rpc, PAY_TO_ACCOUNT).find((await payment()).key, hint);
    assert.equal(found.state, 'unknown');
  });

  it('more history since the payment than one search reads: unknown, never expired', async () => {
    const { rpc, calls } = fakeRpc(await history(450));
    const found = await createSettlementLookup(rpc, PAY_TO_ACCOUNT).find((await payment()).key, hint);
    assert.equal(found.state, 'unknown');
    assert.ok(calls.reads <= 400, `${calls.reads} transactions read`);
  });

  it('stops at the time before which the payment cannot have landed', async () => {
    const { rpc, calls } = fakeRpc(await history(300));
    const since = NOW - 50_000; // the 50 newest entries
    const found = await createSettlementLookup(rpc, PAY_TO_ACCOUNT).find((await payment()).key, {
      ...hint,
      since,
    });
    assert.equal(found.state, 'expired');
    assert.equal(calls.reads, 51);
  });
});
