/**
 * The sandbox chain: how fast a seeded state is restored (what every test start costs), and
 * how many getAccountInfo and sendTransaction calls per second its JSON-RPC serves.
 */
import { fileURLToPath } from 'node:url';
import {
  appendTransactionMessageInstruction,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { createSandboxChain } from '../src/sandbox/chain/chain.js';
import { loadAccountsDir } from '../src/sandbox/chain/dumps.js';
import { restoreSnapshot, takeSnapshot } from '../src/sandbox/chain/snapshot.js';
import { startSandboxRpc } from '../src/sandbox/rpc/server.js';
import { autocannon } from './lib/processes.js';
import { median, printTable } from './lib/report.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/mainnet/accounts/', import.meta.url));

async function restoreTimes(rounds: number): Promise<number[]> {
  const chain = await createSandboxChain({ autoAdvance: false });
  await loadAccountsDir(chain, FIXTURES);
  const snapshot = takeSnapshot(chain);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    chain.warp(1);
    const started = performance.now();
    restoreSnapshot(chain, snapshot);
    times.push(performance.now() - started);
  }
  chain.stop();
  return times;
}

async function sendRate(count: number, concurrency: number): Promise<number> {
  const chain = await createSandboxChain({ autoAdvance: false });
  const rpc = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  try {
    const senders = await Promise.all(Array.from({ length: concurrency }, () => generateKeyPairSigner()));
    for (const s of senders) chain.setAccount({ address: s.address, lamports: 1_000_000_000_000n });
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
    const wires: string[] = [];
    for (let i = 0; i < count; i++) {
      const from = senders[i % concurrency]!;
      const signed = await pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(from, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: blockhash as Blockhash, lastValidBlockHeight },
            m,
          ),
        (m) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({
              source: from,
              destination: senders[(i + 1) % concurrency]!.address,
              amount: BigInt(1000 + i),
            }),
            m,
          ),
        (m) => signTransactionMessageWithSigners(m),
      );
      wires.push(getBase64EncodedWireTransaction(signed));
    }
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < wires.length) {
          const wire = wires[next++]!;
          const res = await fetch(rpc.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'sendTransaction',
              params: [wire, { encoding: 'base64' }],
            }),
          });
          const body = (await res.json()) as { error?: unknown };
          if (body.error) throw new Error(JSON.stringify(body.error));
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  } finally {
    chain.stop();
    await rpc.close();
  }
}

async function accountInfoRate(seconds: number) {
  const chain = await createSandboxChain({ autoAdvance: false });
  await loadAccountsDir(chain, FIXTURES);
  const rpc = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getAccountInfo',
      params: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', { encoding: 'base64' }],
    });
    return await autocannon(rpc.url, seconds, 16, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
  } finally {
    chain.stop();
    await rpc.close();
  }
}

export async function runSandboxBench(options: { seconds: number }) {
  const restores = await restoreTimes(30);
  const sends = await sendRate(1500, 8);
  const reads = await accountInfoRate(options.seconds);
  const result = {
    snapshotRestoreMsP50: median(restores),
    snapshotRestoreMsMax: Math.max(...restores),
    getAccountInfoPerSecond: reads.requestsPerSecond,
    getAccountInfoP99Ms: reads.p99Ms,
    sendTransactionPerSecond: sends,
  };
  printTable(
    'Sandbox chain (41 mainnet fixture accounts loaded)',
    [
      'snapshot restore p50 ms',
      'max ms',
      'getAccountInfo req/s (16 conns)',
      'p99 ms',
      'sendTransaction tx/s (8 in flight)',
    ],
    [
      [
        result.snapshotRestoreMsP50.toFixed(1),
        result.snapshotRestoreMsMax.toFixed(1),
        result.getAccountInfoPerSecond.toFixed(0),
        String(result.getAccountInfoP99Ms),
        result.sendTransactionPerSecond.toFixed(0),
      ],
    ],
  );
  return result;
}
