import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  appendTransactionMessageInstruction,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  pipe,
  type Signature,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { WebSocket } from 'ws';
import { buildTransaction, fundedSigner, LAMPORTS_PER_SOL, type Sandbox, startSandbox } from '../harness.js';

/** Collects notifications from a raw WebSocket, for what kit's typed API hides (ids, unsubscribe results). */
async function rawSocket(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const inbox: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    for (;;) {
      const index = inbox.findIndex(match);
      if (index >= 0) return inbox.splice(index, 1)[0]!;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  let id = 0;
  const call = async (method: string, params: unknown[]) => {
    const requestId = ++id;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }));
    return next((m) => m.id === requestId);
  };
  return { socket, call, next, inbox };
}

describe('sandbox RPC: WebSocket subscriptions', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ finalityDepth: 32 });
  });
  after(() => sandbox.close());

  it('confirms a transaction with kit sendAndConfirmTransactionFactory over HTTP + WS on one port', async () => {
    const payer = await fundedSigner(sandbox.chain);
    const recipient = (await generateKeyPairSigner()).address;
    const { value: lifetime } = await sandbox.rpc.getLatestBlockhash().send();
    const transaction = await pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: payer, destination: recipient, amount: LAMPORTS_PER_SOL }),
          m,
        ),
      (m) => signTransactionMessageWithSigners(m),
    );
    const sendAndConfirm = sendAndConfirmTransactionFactory({
      rpc: sandbox.rpc,
      rpcSubscriptions: sandbox.subscriptions,
    } as Parameters<typeof sendAndConfirmTransactionFactory>[0]);
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' });
    assert.equal((await sandbox.rpc.getBalance(recipient).send()).value, LAMPORTS_PER_SOL);
    const signature = getSignatureFromTransaction(transaction);
    const [status] = (await sandbox.rpc.getSignatureStatuses([signature]).send()).value;
    assert.equal(status?.confirmationStatus, 'confirmed');
  });

  it('notifies slots as the chain advances', async () => {
    const abort = new AbortController();
    const notifications = await sandbox.subscriptions
      .slotNotifications()
      .subscribe({ abortSignal: abort.signal });
    const start = sandbox.chain.slot;
    setTimeout(() => sandbox.chain.warp(3), 10);
    for await (const notification of notifications) {
      assert.equal(notification.slot, start + 3n);
      assert.equal(notification.parent, start + 2n);
      assert.equal(notification.root, start + 3n - 32n);
      break;
    }
    abort.abort();
  });

  it('fires a finalized signature subscription only once 32 slots have passed, then removes it', async () => {
    const ws = await rawSocket(sandbox.server.wsUrl);
    try {
      const payer = await fundedSigner(sandbox.chain);
      const { wire, signature } = await buildTransaction(sandbox, payer, [
        getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
      ]);
      const confirmed = await ws.call('signatureSubscribe', [signature, { commitment: 'confirmed' }]);
      const finalized = await ws.call('signatureSubscribe', [signature, { commitment: 'finalized' }]);
      await sandbox.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
      const first = await ws.next((m) => m.method === 'signatureNotification');
      assert.equal((first.params as { subscription: number }).subscription, confirmed.result);
      assert.deepEqual((first.params as { result: { value: unknown } }).result.value, { err: null });
      sandbox.chain.warp(31);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(ws.inbox.filter((m) => m.method === 'signatureNotification').length, 0, 'not final yet');
      sandbox.chain.warp(1);
      const second = await ws.next((m) => m.method === 'signatureNotification');
      assert.equal((second.params as { subscription: number }).subscription, finalized.result);
      const gone = await ws.call('signatureUnsubscribe', [finalized.result]);
      assert.equal(
        (gone.error as { code: number }).code,
        -32602,
        'a fired signature subscription is removed',
      );
    } finally {
      ws.socket.close();
    }
  });

  it('reports an already-landed transaction right away, and an account change to accountSubscribe', async () => {
    const ws = await rawSocket(sandbox.server.wsUrl);
    try {
      const payer = await fundedSigner(sandbox.chain);
      const recipient = (await generateKeyPairSigner()).address;
      const account = await ws.call('accountSubscribe', [
        recipient,
        { encoding: 'base64', commitment: 'confirmed' },
      ]);
      const { wire, signature } = await buildTransaction(sandbox, payer, [
        getTransferSolInstruction({ source: payer, destination: recipient, amount: 3n * LAMPORTS_PER_SOL }),
      ]);
      await sandbox.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
      const change = await ws.next((m) => m.method === 'accountNotification');
      const value = (change.params as { result: { value: { lamports: number } }; subscription: number })
        .result.value;
      assert.equal(value.lamports, 3_000_000_000);
      assert.equal((change.params as { subscription: number }).subscription, account.result);
      await ws.call('signatureSubscribe', [signature as Signature, { commitment: 'confirmed' }]);
      const late = await ws.next((m) => m.method === 'signatureNotification');
      assert.ok(late);
      const unsubscribed = await ws.call('accountUnsubscribe', [account.result]);
      assert.equal(unsubscribed.result, true);
      const unknown = await ws.call('blockSubscribe', []);
      assert.equal((unknown.error as { code: number }).code, -32601);
    } finally {
      ws.socket.close();
    }
  });
});
