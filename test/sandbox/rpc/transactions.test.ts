import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  generateKeyPairSigner,
  type Signature,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
} from '@solana/kit';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from '@solana-program/memo';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  buildTransaction,
  fundedSigner,
  LAMPORTS_PER_SOL,
  postRaw,
  rpcError,
  type Sandbox,
  send,
  startSandbox,
} from '../harness.js';

const sig = (text: string) => text as Signature;

describe('sandbox RPC: sending and reading transactions', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ finalityDepth: 32 });
  });
  after(() => sandbox.close());

  it('executes a system transfer, charges mainnet fees and records full meta', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const recipient = (await generateKeyPairSigner()).address;
    const signature = await send(sandbox, payer, [
      getSetComputeUnitLimitInstruction({ units: 10_000 }),
      getSetComputeUnitPriceInstruction({ microLamports: 250_000n }),
      getTransferSolInstruction({ source: payer, destination: recipient, amount: LAMPORTS_PER_SOL }),
    ]);
    const fee = 5000n + (250_000n * 10_000n + 999_999n) / 1_000_000n;
    const balance = await sandbox.rpc.getBalance(payer.address).send();
    assert.equal(balance.value, 10n * LAMPORTS_PER_SOL - LAMPORTS_PER_SOL - fee);
    assert.equal((await sandbox.rpc.getBalance(recipient).send()).value, LAMPORTS_PER_SOL);

    const tx = await sandbox.rpc
      .getTransaction(sig(signature), {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
        encoding: 'json',
      })
      .send();
    assert.ok(tx);
    assert.equal(tx.meta?.fee, fee);
    assert.equal(tx.meta?.err, null);
    assert.equal(tx.version, 0);
    assert.equal(tx.meta!.preBalances[0]! - tx.meta!.postBalances[0]!, LAMPORTS_PER_SOL + fee);
    assert.ok(tx.meta?.logMessages?.includes('Program 11111111111111111111111111111111 success'));
    assert.ok((tx.meta?.computeUnitsConsumed ?? 0n) > 0n);
    assert.deepEqual(tx.meta?.loadedAddresses, { writable: [], readonly: [] });
    assert.equal(tx.transaction.message.accountKeys[0], payer.address);
    assert.equal(tx.transaction.signatures[0], signature);
    assert.equal(tx.slot, await sandbox.rpc.getSlot().send());
    assert.equal(tx.blockTime, BigInt(sandbox.chain.unixTimestamp(tx.slot)));

    const base64 = await sandbox.rpc
      .getTransaction(sig(signature), {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
        encoding: 'base64',
      })
      .send();
    assert.equal(base64?.transaction[1], 'base64');
  });

  it('hides a fresh transaction from finalized readers until 32 slots pass', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const signature = await send(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
    ]);
    // kit defaults every request to `confirmed`; a finalized reader must say so.
    const options = { maxSupportedTransactionVersion: 0, commitment: 'finalized', encoding: 'json' } as const;
    assert.equal(await sandbox.rpc.getTransaction(sig(signature), options).send(), null);
    const status = await sandbox.rpc.getSignatureStatuses([sig(signature)]).send();
    assert.equal(status.value[0]?.confirmationStatus, 'confirmed');
    assert.equal(status.value[0]?.confirmations, 0n);
    sandbox.chain.warp(32);
    assert.ok(await sandbox.rpc.getTransaction(sig(signature), options).send());
    const finalized = await sandbox.rpc.getSignatureStatuses([sig(signature)]).send();
    assert.equal(finalized.value[0]?.confirmationStatus, 'finalized');
    assert.equal(finalized.value[0]?.confirmations, null);
  });

  it('refuses a v0 transaction to clients without maxSupportedTransactionVersion (-32015)', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const legacy = await send(
      sandbox,
      payer,
      [getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n })],
      { version: 'legacy' },
    );
    const v0 = await send(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 2n }),
    ]);
    const error = await rpcError(
      sandbox.rpc.getTransaction(sig(v0), { commitment: 'confirmed', encoding: 'json' }).send(),
    );
    assert.equal(error.code, -32015);
    assert.match(error.message, /maxSupportedTransactionVersion/);
    const plain = await sandbox.rpc
      .getTransaction(sig(legacy), { commitment: 'confirmed', encoding: 'json' })
      .send();
    assert.ok(plain);
    assert.equal('version' in plain, false, 'mainnet omits version when the client did not ask for it');
  });

  it('refuses a failing transaction at preflight with -32002 and the simulation', async () => {
    const payer = await fundedSigner(sandbox.chain, 1_000_000n);
    const error = await rpcError(
      send(sandbox, payer, [
        getTransferSolInstruction({ source: payer, destination: payer.address, amount: 0n }),
        getTransferSolInstruction({
          source: payer,
          destination: (await generateKeyPairSigner()).address,
          amount: 5n * LAMPORTS_PER_SOL,
        }),
      ]),
    );
    assert.equal(error.code, -32002);
    assert.equal(error.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM);
    assert.ok((error.context.logs as string[]).some((line) => /insufficient lamports/.test(line)));
    assert.equal((await sandbox.rpc.getBalance(payer.address).send()).value, 1_000_000n, 'nothing charged');
    assert.equal(sandbox.chain.signaturesFor(payer.address).length, 0);
  });

  it('lands a failing transaction sent with skipPreflight: fee paid, error recorded', async () => {
    const payer = await fundedSigner(sandbox.chain, 1_000_000n);
    const signature = await send(
      sandbox,
      payer,
      [
        getTransferSolInstruction({
          source: payer,
          destination: (await generateKeyPairSigner()).address,
          amount: 5n * LAMPORTS_PER_SOL,
        }),
      ],
      { skipPreflight: true },
    );
    assert.equal((await sandbox.rpc.getBalance(payer.address).send()).value, 995_000n);
    const [status] = (await sandbox.rpc.getSignatureStatuses([sig(signature)]).send()).value;
    assert.deepEqual(status?.err, { InstructionError: [0n, { Custom: 1n }] });
    const tx = await sandbox.rpc
      .getTransaction(sig(signature), {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
        encoding: 'json',
      })
      .send();
    assert.deepEqual(tx?.meta?.status, { Err: { InstructionError: [0n, { Custom: 1n }] } });
    assert.equal(tx?.meta?.fee, 5000n);
    const listed = await sandbox.rpc
      .getSignaturesForAddress(payer.address, { commitment: 'confirmed' })
      .send();
    assert.equal(listed[0]?.signature, signature);
    assert.deepEqual(listed[0]?.err, { InstructionError: [0n, { Custom: 1n }] });
  });

  it('rejects an expired blockhash: BlockhashNotFound on send and simulate; dropped with skipPreflight', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const stale = (await sandbox.rpc.getLatestBlockhash().send()).value;
    sandbox.chain.warp(151);
    const ix = [getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n })];
    const error = await rpcError(send(sandbox, payer, ix, { blockhash: stale }));
    assert.equal(error.code, -32002);
    assert.equal(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND);
    const { wire, signature } = await buildTransaction(sandbox, payer, ix, { blockhash: stale });
    const raw = (await postRaw(
      sandbox.server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'sendTransaction',
        params: [wire, { encoding: 'base64' }],
      }),
    )) as { error: { code: number; message: string; data: { err: unknown } } };
    assert.equal(raw.error.message, 'Transaction simulation failed: Blockhash not found');
    assert.equal(raw.error.data.err, 'BlockhashNotFound');
    const simulated = await sandbox.rpc.simulateTransaction(wire, { encoding: 'base64' }).send();
    assert.equal(simulated.value.err, 'BlockhashNotFound');
    const dropped = await sandbox.rpc
      .sendTransaction(wire, { encoding: 'base64', skipPreflight: true })
      .send();
    assert.equal(dropped, signature);
    const status = await sandbox.rpc
      .getSignatureStatuses([sig(signature)], { searchTransactionHistory: true })
      .send();
    assert.equal(status.value[0], null, 'a dropped transaction never lands');
  });

  it('refuses an unfunded fee payer at preflight (AccountNotFound) and a bad signature with -32003', async () => {
    const broke = await generateKeyPairSigner();
    const error = await rpcError(
      send(sandbox, broke, [
        getTransferSolInstruction({ source: broke, destination: broke.address, amount: 1n }),
      ]),
    );
    assert.equal(error.code, -32002);
    assert.equal(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND);

    const payer = await fundedSigner(sandbox.chain);
    const { wire } = await buildTransaction(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
    ]);
    const bytes = Buffer.from(wire, 'base64');
    bytes[5] = (bytes[5] ?? 0) ^ 0xff;
    const tampered = bytes.toString('base64') as typeof wire;
    const sigError = await rpcError(sandbox.rpc.sendTransaction(tampered, { encoding: 'base64' }).send());
    assert.equal(sigError.code, -32003);
    const simError = await rpcError(
      sandbox.rpc.simulateTransaction(tampered, { encoding: 'base64', sigVerify: true }).send(),
    );
    assert.equal(simError.code, -32003);
    const garbage = await rpcError(
      sandbox.rpc.sendTransaction('AAAA' as typeof wire, { encoding: 'base64' }).send(),
    );
    assert.equal(garbage.code, -32602);
  });

  it('simulates without changing state, with replaceRecentBlockhash, inner instructions and accounts', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const recipient = (await generateKeyPairSigner()).address;
    const stale = (await sandbox.rpc.getLatestBlockhash().send()).value;
    sandbox.chain.warp(200);
    const { wire } = await buildTransaction(
      sandbox,
      payer,
      [getTransferSolInstruction({ source: payer, destination: recipient, amount: 7n * LAMPORTS_PER_SOL })],
      { blockhash: stale },
    );
    const result = await sandbox.rpc
      .simulateTransaction(wire, {
        encoding: 'base64',
        replaceRecentBlockhash: true,
        innerInstructions: true,
        accounts: { addresses: [recipient], encoding: 'base64' },
      })
      .send();
    assert.equal(result.value.err, null);
    assert.equal(result.value.accounts?.[0]?.lamports, 7n * LAMPORTS_PER_SOL);
    assert.equal(
      result.value.replacementBlockhash?.blockhash,
      (await sandbox.rpc.getLatestBlockhash().send()).value.blockhash,
    );
    assert.ok((result.value.unitsConsumed ?? 0n) > 0n);
    assert.deepEqual(result.value.innerInstructions, []);
    assert.equal((await sandbox.rpc.getBalance(recipient).send()).value, 0n, 'simulation changed nothing');
    const both = await rpcError(
      sandbox.rpc
        .simulateTransaction(wire, {
          encoding: 'base64',
          replaceRecentBlockhash: true,
          sigVerify: true,
        } as never)
        .send(),
    );
    assert.equal(both.code, -32602);
  });

  it('refuses a replayed transaction at preflight (AlreadyProcessed) and records it once', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const { wire, signature } = await buildTransaction(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 3n }),
    ]);
    await sandbox.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    const again = await rpcError(sandbox.rpc.sendTransaction(wire, { encoding: 'base64' }).send());
    assert.equal(again.code, -32002);
    assert.equal(again.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED);
    assert.equal(
      await sandbox.rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true }).send(),
      signature,
    );
    assert.deepEqual(sandbox.chain.signaturesFor(payer.address), [signature]);
  });

  it('knows a processed transaction by its message too: resent with its first signature blank, it is AlreadyProcessed', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const { wire, signature } = await buildTransaction(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 4n }),
    ]);
    await sandbox.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    // As an x402 payment arrives: the same message, the fee payer's signature not yet made.
    const bytes = Buffer.from(wire, 'base64');
    bytes.fill(0, 1, 65);
    const blank = bytes.toString('base64') as typeof wire;
    const simulated = await sandbox.rpc.simulateTransaction(blank, { encoding: 'base64' }).send();
    assert.equal(simulated.value.err, 'AlreadyProcessed');
    await sandbox.rpc.sendTransaction(blank, { encoding: 'base64', skipPreflight: true }).send();
    assert.deepEqual(sandbox.chain.signaturesFor(payer.address), [signature], 'never processed twice');
  });

  it('pages getSignaturesForAddress newest first with limit, before and until, and extracts memos', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const signatures: string[] = [];
    for (let i = 0; i < 5; i++) {
      signatures.push(
        await send(sandbox, payer, [
          getAddMemoInstruction({ memo: `note ${i}` }, { programAddress: LEGACY_MEMO_PROGRAM_ADDRESS_V3 }),
        ]),
      );
      sandbox.chain.warp(1);
    }
    const newestFirst = [...signatures].reverse();
    const all = await sandbox.rpc.getSignaturesForAddress(payer.address, { commitment: 'confirmed' }).send();
    assert.deepEqual(
      all.map((s) => s.signature),
      newestFirst,
    );
    assert.equal(all[0]?.memo, '[6] note 4');
    assert.ok(all[0]!.slot > all[4]!.slot);
    assert.equal(all[0]?.confirmationStatus, 'confirmed');
    const page = await sandbox.rpc
      .getSignaturesForAddress(payer.address, {
        commitment: 'confirmed',
        limit: 2,
        before: sig(newestFirst[1]!),
      })
      .send();
    assert.deepEqual(
      page.map((s) => s.signature),
      newestFirst.slice(2, 4),
    );
    const until = await sandbox.rpc
      .getSignaturesForAddress(payer.address, { commitment: 'confirmed', until: sig(newestFirst[2]!) })
      .send();
    assert.deepEqual(
      until.map((s) => s.signature),
      newestFirst.slice(0, 2),
    );
    const finalized = await sandbox.rpc
      .getSignaturesForAddress(payer.address, { commitment: 'finalized' })
      .send();
    assert.deepEqual(finalized, [], 'none finalized yet');
    const tooMany = await rpcError(
      sandbox.rpc.getSignaturesForAddress(payer.address, { limit: 1001 }).send(),
    );
    assert.equal(tooMany.code, -32602);
  });

  it('forgets statuses older than the status cache unless searchTransactionHistory is set', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const signature = await send(sandbox, payer, [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 4n }),
    ]);
    sandbox.chain.warp(301);
    assert.equal((await sandbox.rpc.getSignatureStatuses([sig(signature)]).send()).value[0], null);
    const found = await sandbox.rpc
      .getSignatureStatuses([sig(signature)], { searchTransactionHistory: true })
      .send();
    assert.equal(found.value[0]?.confirmationStatus, 'finalized');
  });

  it('airdrops with a real faucet transfer that shows up in history', async () => {
    const wallet = (await generateKeyPairSigner()).address as Address;
    const signature = await sandbox.rpc.requestAirdrop(wallet, 2_000_000_000n as never).send();
    assert.equal((await sandbox.rpc.getBalance(wallet).send()).value, 2_000_000_000n);
    const listed = await sandbox.rpc.getSignaturesForAddress(wallet, { commitment: 'confirmed' }).send();
    assert.deepEqual(
      listed.map((s) => s.signature),
      [signature],
    );
    const bad = await rpcError(sandbox.rpc.requestAirdrop('not-an-address' as Address, 1n as never).send());
    assert.equal(bad.code, -32602);
  });
});
