/**
 * `npm start` with no configuration: the sandbox comes up on its own, says loudly that it is
 * a simulation, writes the payer keypair and manifest, and its payer can pay a call.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createKeyPairSignerFromBytes, createSolanaRpc } from '@solana/kit';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { loadOrSeed } from '../../src/sandbox/seeded-snapshot.js';
import { scanToken } from '../../src/scans/token/index.js';
import { HANG_MS, riskScan } from '../cli/run-cli.js';
import { unusedPort } from '../helpers/ports.js';
import { TEST_SNAPSHOT_DIR } from '../helpers/seeded-chain.js';
import { jsonOf } from '../helpers/service.js';

describe('npm start with no configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
  let child: ChildProcess;
  let output = '';
  let readyMs = 0;
  // Free ports, found now: fixed ones could already be taken by another process on the machine,
  // whose /health would then answer for a sandbox that never started. The facilitators take
  // two consecutive ports.
  let ports: { api: number; rpc: number; facilitator: number };

  before(async () => {
    ports = { api: await unusedPort(), rpc: await unusedPort(), facilitator: await unusedPort(2) };
    // The snapshot is there before the start, so this sandbox's chain, actors and acts are a restored one's.
    await loadOrSeed({ dir: TEST_SNAPSHOT_DIR, slotMs: 400 });
    const started = performance.now();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(ports.api),
        SANDBOX_RPC_PORT: String(ports.rpc),
        SANDBOX_FACILITATOR_PORT: String(ports.facilitator),
        SANDBOX_DIR: dir,
        SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    // Waits for the start or the child's end; the deadline only bounds a hang (a loaded machine
    // may take half a minute to start tsx and the sources).
    const deadline = Date.now() + HANG_MS;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      const ok = await fetch(`http://127.0.0.1:${ports.api}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok && readyMs === 0) readyMs = performance.now() - started;
      // The banner is printed once everything listens; its pipe may trail /health a little.
      if (ok && output.includes('Manifest')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  after(() => {
    child?.kill('SIGTERM');
  });

  it('becomes ready and announces a simulation', () => {
    assert.ok(readyMs > 0, `never ready (exit ${child.exitCode}); output: ${output}`);
    console.log(`sandbox ready after ${Math.round(readyMs)} ms`);
    assert.match(output, /SANDBOX\. This is a SIMULATION/);
    assert.match(output, /Nothing here is real money/);
    assert.match(output, /the seeded chain from its snapshot/);
  });

  it('/health reports mode sandbox with healthy facilitators and RPC', async () => {
    const health = await jsonOf(await fetch(`http://127.0.0.1:${ports.api}/health`));
    assert.equal(health.mode, 'sandbox');
    assert.equal(health.status, 'ok');
    assert.equal(health.checks.payments.facilitators.length, 2);
  });

  it('writes payer.json (Solana CLI format) and sandbox.json, and that payer can pay for a scan of a seeded subject', async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    assert.equal(manifest.apiUrl, `http://127.0.0.1:${ports.api}`);
    assert.equal(manifest.rpcUrl, `http://127.0.0.1:${ports.rpc}`);
    assert.equal(manifest.facilitatorUrl, `http://127.0.0.1:${ports.facilitator}`);
    assert.equal(manifest.usdcMint, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    const bytes = JSON.parse(readFileSync(join(dir, 'payer.json'), 'utf8'));
    const payer = await createKeyPairSignerFromBytes(new Uint8Array(bytes));
    assert.equal(payer.address, manifest.payer.address);

    const client = new x402Client().register(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      new ExactSvmScheme(payer, { rpcUrl: manifest.rpcUrl }),
    );
    const drainer = manifest.subjects.find((s: { name: string }) => s.name === 'tx:drainer');
    assert.ok(drainer?.signature, 'the manifest lists the seeded subjects');
    const res = await wrapFetchWithPayment(
      fetch,
      client,
    )(`${manifest.apiUrl}/verify/tx/${drainer.signature}`);
    const body = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(decodePaymentResponseHeader(res.headers.get('payment-response')!).success, true);
    assert.ok(
      body.flags.includes('TX_TOKEN_ACCOUNT_OWNER_CHANGED'),
      'a real assessment of the seeded drainer',
    );

    // The manifest's transactions to simulate: the same client pays a POST of one.
    const approve = manifest.simulations.find((s: { name: string }) => s.name === 'sim:approve-drain');
    assert.ok(approve?.transaction, 'the manifest lists the simulations');
    const simulated = await wrapFetchWithPayment(fetch, client)(`${manifest.apiUrl}/simulate/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transaction: approve.transaction }),
    });
    const result = await jsonOf(simulated);
    assert.equal(simulated.status, 200, JSON.stringify(result));
    assert.deepEqual(result.flags, approve.expect.flags);
  });

  it("writes each action's actor as a keypair file (Solana CLI format) that is the actor's key", async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    const actions = manifest.subjects.flatMap(
      (s: { actions?: { name: string; actor: { address: string; keypair: string } }[] }) => s.actions ?? [],
    );
    assert.deepEqual(actions.map((a: { name: string }) => a.name).sort(), [
      'burn-lp',
      'freeze',
      'mint',
      'sell-dev-buy',
      'upgrade',
      'withdraw-lp',
    ]);
    for (const { actor } of actions) {
      assert.equal(join(actor.keypair, '..'), join(dir, 'actors'));
      const bytes = JSON.parse(readFileSync(actor.keypair, 'utf8'));
      assert.equal((await createKeyPairSignerFromBytes(new Uint8Array(bytes))).address, actor.address);
    }
  });

  it('risk-scan act sends an action with its keypair file; the scan then shows its change', async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    const live = manifest.subjects.find((s: { name: string }) => s.name === 'token:authorities-live');
    const ended = await riskScan(['act', 'token:authorities-live', 'freeze'], { SANDBOX_DIR: dir });
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stdout.trim(), /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    assert.match(ended.stderr, /should now show \+FROZEN_HOLDERS/);
    const rpc = createSolanaRpc(manifest.rpcUrl);
    const { result } = await scanToken(live.address, { rpc: rpc as never, now: Date.now });
    assert.ok(result.flags.includes('FROZEN_HOLDERS'), String(result.flags));
    const unknown = await riskScan(['act', 'token:clean', 'mint'], { SANDBOX_DIR: dir });
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /no action mint on token:clean; the sandbox has: .*token:authorities-live freeze/,
    );
  });

  it('risk-scan act withdraw-lp: the started sandbox stands in for CPMM, the scan then shows the LP pulled', async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8'));
    const pooled = manifest.subjects.find((s: { name: string }) => s.name === 'token:pool-lp-creator');
    const ended = await riskScan(['act', 'token:pool-lp-creator', 'withdraw-lp'], { SANDBOX_DIR: dir });
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stderr, /stand-in for the CPMM program/);
    const rpc = createSolanaRpc(manifest.rpcUrl);
    const { result } = await scanToken(pooled.address, { rpc: rpc as never, now: Date.now });
    assert.ok(result.flags.includes('LIQUIDITY_THIN'), String(result.flags));
    assert.ok(!result.flags.includes('LP_PULLABLE'), String(result.flags));
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
