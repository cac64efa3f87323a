import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransactionMessage,
  createTransactionMessage,
  getBase64Decoder,
  getCompiledTransactionMessageEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { fundedSigner, postRaw, rpcError, type Sandbox, startSandbox } from '../harness.js';

describe('sandbox RPC: cluster methods', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  it('answers health, version and the mainnet genesis hash', async () => {
    assert.equal(await sandbox.rpc.getHealth().send(), 'ok');
    const version = await sandbox.rpc.getVersion().send();
    assert.match(version['solana-core'], /^\d+\.\d+\.\d+$/);
    assert.equal(await sandbox.rpc.getGenesisHash().send(), '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d');
    const health = await fetch(`${sandbox.server.url}/health`);
    assert.equal(await health.text(), 'ok');
  });

  it('keeps slot, block height and epoch info consistent as slots advance', async () => {
    const slot = await sandbox.rpc.getSlot().send();
    const height = await sandbox.rpc.getBlockHeight().send();
    sandbox.chain.warp(10);
    const info = await sandbox.rpc.getEpochInfo().send();
    assert.equal(info.absoluteSlot, slot + 10n);
    assert.equal(info.blockHeight, height + 10n);
    assert.equal(info.slotsInEpoch, 432_000n);
    assert.equal(info.epoch * info.slotsInEpoch + info.slotIndex, info.absoluteSlot);
  });

  it('rotates the blockhash every slot and expires it after 150 slots, like mainnet', async () => {
    const first = await sandbox.rpc.getLatestBlockhash().send();
    const height = await sandbox.rpc.getBlockHeight().send();
    assert.equal(first.value.lastValidBlockHeight, height + 150n);
    assert.equal(first.context.slot, await sandbox.rpc.getSlot().send());
    sandbox.chain.warp(1);
    const second = await sandbox.rpc.getLatestBlockhash().send();
    assert.notEqual(second.value.blockhash, first.value.blockhash);
    sandbox.chain.warp(149);
    assert.equal((await sandbox.rpc.isBlockhashValid(first.value.blockhash).send()).value, true);
    sandbox.chain.warp(1);
    assert.equal((await sandbox.rpc.isBlockhashValid(first.value.blockhash).send()).value, false);
    assert.equal((await sandbox.rpc.isBlockhashValid(second.value.blockhash).send()).value, true);
  });

  it('reports rent-exempt minimums from the real rent sysvar', async () => {
    assert.equal(await sandbox.rpc.getMinimumBalanceForRentExemption(0n).send(), 890_880n);
    assert.equal(await sandbox.rpc.getMinimumBalanceForRentExemption(165n).send(), 2_039_280n);
  });

  it('prices a message like mainnet and answers null once its blockhash expired', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const { value: lifetime } = await sandbox.rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
          m,
        ),
    );
    const bytes = getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message));
    const base64 = getBase64Decoder().decode(bytes) as TransactionMessageBytesBase64;
    assert.equal((await sandbox.rpc.getFeeForMessage(base64).send()).value, 5000n);
    sandbox.chain.warp(151);
    assert.equal((await sandbox.rpc.getFeeForMessage(base64).send()).value, null);
  });

  it('refuses unknown methods with -32601 and bad params with -32602', async () => {
    const unknown = (await postRaw(
      sandbox.server.url,
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getNothing', params: [] }),
    )) as { id: number; error: { code: number; message: string } };
    assert.deepEqual(unknown, {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found' },
    });
    const bad = await rpcError(sandbox.rpc.getMinimumBalanceForRentExemption(-1n as bigint).send());
    assert.equal(bad.code, -32602);
    const commitment = await rpcError(sandbox.rpc.getSlot({ commitment: 'sometimes' as 'confirmed' }).send());
    assert.equal(commitment.code, -32602);
  });

  it('answers batches in order and a malformed body with -32700', async () => {
    const batch = (await postRaw(
      sandbox.server.url,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getHealth' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
        { jsonrpc: '2.0', id: 3, method: 'getGenesisHash' },
      ]),
    )) as { id: number; result?: unknown; error?: { code: number } }[];
    assert.deepEqual(
      batch.map((r) => [r.id, r.result ?? r.error?.code]),
      [
        [1, 'ok'],
        [2, -32601],
        [3, '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d'],
      ],
    );
    const parse = (await postRaw(sandbox.server.url, '{"jsonrpc":')) as { error: { code: number } };
    assert.equal(parse.error.code, -32700);
    const empty = (await postRaw(sandbox.server.url, '[]')) as { error: { code: number } };
    assert.equal(empty.error.code, -32600);
  });

  it('refuses a minContextSlot the chain has not reached with -32016', async () => {
    const slot = await sandbox.rpc.getSlot().send();
    const error = await rpcError(
      sandbox.rpc
        .getBalance('11111111111111111111111111111111' as never, { minContextSlot: slot + 5n })
        .send(),
    );
    assert.equal(error.code, -32016);
  });
});
