import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner } from '@solana/kit';
import bs58 from 'bs58';
import { rpcError, type Sandbox, startSandbox } from '../harness.js';

const OWNER = 'Fxo6qW4oP2VmDKT5z1zK1TeaRuKkQyPRV4RGgZ7VfCnt' as Address;

describe('sandbox RPC: account reads', () => {
  let sandbox: Sandbox;
  const rows: { address: Address; data: Uint8Array }[] = [];
  before(async () => {
    sandbox = await startSandbox();
    for (let i = 0; i < 4; i++) {
      const address = (await generateKeyPairSigner()).address;
      const data = new Uint8Array(i < 3 ? 40 : 41);
      data.set([7, 7, i % 2], 8);
      sandbox.chain.setAccount({ address, lamports: 1_000_000n + BigInt(i), data, owner: OWNER });
      rows.push({ address, data });
    }
  });
  after(() => sandbox.close());

  it('returns balances, and 0 / null for accounts that do not exist', async () => {
    const missing = (await generateKeyPairSigner()).address;
    assert.equal((await sandbox.rpc.getBalance(rows[1]!.address).send()).value, 1_000_001n);
    assert.equal((await sandbox.rpc.getBalance(missing).send()).value, 0n);
    const info = await sandbox.rpc.getAccountInfo(missing, { encoding: 'base64' }).send();
    assert.equal(info.value, null);
    assert.ok(info.context.slot > 0n);
  });

  it('encodes account data as base64, base58 and slices it', async () => {
    const { address, data } = rows[0]!;
    const b64 = await sandbox.rpc.getAccountInfo(address, { encoding: 'base64' }).send();
    assert.deepEqual(b64.value?.data, [Buffer.from(data).toString('base64'), 'base64']);
    assert.equal(b64.value?.owner, OWNER);
    assert.equal(b64.value?.space, 40n);
    const sliced = await sandbox.rpc
      .getAccountInfo(address, { encoding: 'base58', dataSlice: { offset: 8, length: 3 } })
      .send();
    assert.deepEqual(sliced.value?.data, [bs58.encode(new Uint8Array([7, 7, 0])), 'base58']);
    const zstd = await rpcError(sandbox.rpc.getAccountInfo(address, { encoding: 'base64+zstd' }).send());
    assert.equal(zstd.code, -32602);
    const bad = await rpcError(sandbox.rpc.getAccountInfo('nope' as Address).send());
    assert.equal(bad.code, -32602);
  });

  it('returns getMultipleAccounts in request order with nulls for missing ones', async () => {
    const missing = (await generateKeyPairSigner()).address;
    const result = await sandbox.rpc
      .getMultipleAccounts([rows[2]!.address, missing, rows[0]!.address], { encoding: 'base64' })
      .send();
    assert.deepEqual(
      result.value.map((a) => a?.lamports ?? null),
      [1_000_002n, null, 1_000_000n],
    );
    const tooMany = await rpcError(
      sandbox.rpc.getMultipleAccounts(Array(101).fill(missing), { encoding: 'base64' }).send(),
    );
    assert.equal(tooMany.code, -32602);
  });

  it('filters getProgramAccounts by dataSize and memcmp (base58 and base64)', async () => {
    const all = await sandbox.rpc.getProgramAccounts(OWNER, { encoding: 'base64' }).send();
    assert.equal(all.length, 4);
    const sized = await sandbox.rpc
      .getProgramAccounts(OWNER, { encoding: 'base64', filters: [{ dataSize: 41n }] })
      .send();
    assert.deepEqual(
      sized.map((a) => a.pubkey),
      [rows[3]!.address],
    );
    const odd58 = await sandbox.rpc
      .getProgramAccounts(OWNER, {
        encoding: 'base64',
        filters: [
          {
            memcmp: {
              offset: 8n,
              bytes: bs58.encode(new Uint8Array([7, 7, 1])) as never,
              encoding: 'base58',
            },
          },
        ],
      })
      .send();
    assert.deepEqual(new Set(odd58.map((a) => a.pubkey)), new Set([rows[1]!.address, rows[3]!.address]));
    const even64 = await sandbox.rpc
      .getProgramAccounts(OWNER, {
        encoding: 'base64',
        withContext: true,
        dataSlice: { offset: 8, length: 2 },
        filters: [
          {
            memcmp: {
              offset: 8n,
              bytes: Buffer.from([7, 7, 0]).toString('base64') as never,
              encoding: 'base64',
            },
          },
          { dataSize: 40n },
        ],
      })
      .send();
    assert.ok(even64.context.slot > 0n);
    assert.deepEqual(
      new Set(even64.value.map((a) => a.pubkey)),
      new Set([rows[0]!.address, rows[2]!.address]),
    );
    assert.deepEqual(even64.value[0]?.account.data, ['Bwc=', 'base64']);
  });
});
