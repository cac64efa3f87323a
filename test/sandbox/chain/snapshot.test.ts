import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Address, generateKeyPairSigner, type Signature } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { createSandboxChain } from '../../../src/sandbox/chain/chain.js';
import { loadAccountFile } from '../../../src/sandbox/chain/dumps.js';
import {
  loadSnapshotFile,
  restoreSnapshot,
  saveSnapshotFile,
  takeSnapshot,
} from '../../../src/sandbox/chain/snapshot.js';
import { startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { fundedSigner, LAMPORTS_PER_SOL, type Sandbox, send, startSandbox } from '../harness.js';

/** Everything a client can observe about a few addresses and signatures, for before/after comparison. */
async function observe(sandbox: Sandbox, addresses: Address[], signatures: string[]) {
  const accounts = await sandbox.rpc.getMultipleAccounts(addresses, { encoding: 'base64' }).send();
  const history = await Promise.all(
    addresses.map((a) => sandbox.rpc.getSignaturesForAddress(a, { commitment: 'confirmed' }).send()),
  );
  const transactions = await Promise.all(
    signatures.map((s) =>
      sandbox.rpc
        .getTransaction(s as Signature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
          encoding: 'base64',
        })
        .send(),
    ),
  );
  return {
    slot: await sandbox.rpc.getSlot().send(),
    blockhash: (await sandbox.rpc.getLatestBlockhash().send()).value,
    accounts: accounts.value,
    history: history.map((list) => list.map(({ confirmationStatus: _c, ...rest }) => rest)),
    transactions,
  };
}

describe('sandbox chain: snapshots', () => {
  let sandbox: Sandbox;
  let dir: string;
  const addresses: Address[] = [];
  const signatures: string[] = [];
  before(async () => {
    sandbox = await startSandbox();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-snapshot-'));
    await loadAccountFile(
      sandbox.chain,
      fileURLToPath(new URL('../../../fixtures/mainnet/accounts/usdc-mint.json', import.meta.url)),
    );
    const payer = await fundedSigner(sandbox.chain);
    addresses.push(payer.address, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address);
    for (let i = 0; i < 3; i++) {
      const recipient = (await generateKeyPairSigner()).address;
      addresses.push(recipient);
      signatures.push(
        await send(sandbox, payer, [
          getTransferSolInstruction({ source: payer, destination: recipient, amount: LAMPORTS_PER_SOL }),
        ]),
      );
      sandbox.chain.warp(2);
    }
    signatures.push(await sandbox.rpc.requestAirdrop(payer.address, 5n as never).send());
  });
  after(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores accounts, slot, blockhashes and history exactly, discarding later changes', async () => {
    const before = await observe(sandbox, addresses, signatures);
    const snapshot = takeSnapshot(sandbox.chain);
    const payer = await fundedSigner(sandbox.chain);
    const later = await send(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: addresses[2]!, amount: 1n }),
    ]);
    sandbox.chain.warp(500);
    sandbox.chain.setAccount({ address: addresses[1]!, lamports: 1n });
    const started = performance.now();
    restoreSnapshot(sandbox.chain, snapshot);
    const restoreMs = performance.now() - started;
    console.log(`in-memory restore: ${restoreMs.toFixed(1)} ms`);
    assert.deepEqual(await observe(sandbox, addresses, signatures), before);
    assert.equal(sandbox.chain.transaction(later), undefined);
    assert.equal((await sandbox.rpc.getBalance(payer.address).send()).value, 0n);
    // The restored chain keeps working: its blockhash window accepts a fresh transaction.
    const again = await fundedSigner(sandbox.chain);
    await send(sandbox, again, [
      getTransferSolInstruction({ source: again, destination: again.address, amount: 1n }),
    ]);
  });

  it('round-trips through a JSON file into a fresh chain and server', async () => {
    restoreSnapshot(sandbox.chain, takeSnapshot(sandbox.chain));
    const expected = await observe(sandbox, addresses, signatures);
    const file = join(dir, 'chain.json');
    await saveSnapshotFile(sandbox.chain, file);
    const size = (await stat(file)).size;
    const chain = await createSandboxChain({ autoAdvance: false });
    const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    try {
      const started = performance.now();
      await loadSnapshotFile(chain, file);
      const loadMs = performance.now() - started;
      console.log(`snapshot file: ${(size / 1e6).toFixed(2)} MB, load + restore ${loadMs.toFixed(1)} ms`);
      const { createSolanaRpc } = await import('@solana/kit');
      const fresh = { ...sandbox, chain, server, rpc: createSolanaRpc(server.url) } as Sandbox;
      assert.deepEqual(await observe(fresh, addresses, signatures), expected);
      const airdrop = await fresh.rpc.requestAirdrop(addresses[3]!, 7n as never).send();
      assert.ok(chain.transaction(airdrop), 'the restored faucet still signs');
    } finally {
      chain.stop();
      await server.close();
    }
  });
});
