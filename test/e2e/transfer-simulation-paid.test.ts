/**
 * The transfer simulation of /scan/token and /scan/pumpfun, paid for through the official x402
 * client against `risk-scan sandbox`, with its RPC answering as an ideal node and as an indexed
 * provider (SANDBOX_RPC_PROFILE): each hook scenario raises what its manifest entry says, the
 * refusal's program and error in evidence; a clean token and a hook that lets transfers through
 * raise none of the simulation flags; holders whose wallets have no SOL (nor a system account) are
 * simulated all the same, the simulation paying its fee from a wallet that always holds SOL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type ScenarioManifest, subject } from '../../src/sandbox/scenarios/index.js';
import { REFUSING_HOOK_ERROR } from '../../src/sandbox/scenarios/transfer-hooks.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';
import { jsonOf } from '../helpers/service.js';

const SIMULATION_FLAGS = ['TRANSFER_BLOCKED', 'TRANSFER_UNDECLARED_CUT', 'TRANSFER_SIMULATION_UNAVAILABLE'];

for (const profile of ['ideal', 'indexed-provider'] as const satisfies readonly RpcProfileName[]) {
  describe(`transfer simulation, paid, RPC profile ${profile}`, { timeout: 300_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'transfer-sim-'));
    let sandbox: RunningSandbox;
    let manifest: ScenarioManifest;
    let pay: typeof fetch;

    const scan = async (path: 'token' | 'pumpfun', name: string) => {
      const res = await pay(`${sandbox.api.url}/scan/${path}/${subject(manifest, 'token', name).address}`);
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.ok(res.headers.get('payment-response'), 'paid: a settlement receipt comes with the result');
      return body as any;
    };

    before(async () => {
      sandbox = await startCustomerSandbox(dir, profile);
      manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
      pay = await payingFetch(sandbox);
    });
    after(async () => {
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a hook that refuses: TRANSFER_BLOCKED, naming the hook program, its error and the logs', async () => {
      const expected = subject(manifest, 'token', 'token:t22-hook-refuses').expect.transferSimulation!;
      const body = await scan('token', 'token:t22-hook-refuses');
      for (const code of expected.raises) assert.ok(body.flags.includes(code), `${code} in ${body.flags}`);
      const blocked = body.evidence.flags.TRANSFER_BLOCKED;
      assert.equal(blocked.failing_program, expected.failingProgram);
      assert.equal(blocked.error, `custom program error 0x${REFUSING_HOOK_ERROR.toString(16)}`);
      assert.ok(blocked.logs.some((line: string) => line.includes(`${expected.failingProgram} failed`)));
      assert.ok(body.risk_score >= 0.85, `floored: ${body.risk_score}`);
      assert.equal(body.evidence.transfer_simulation.outcome, 'blocked');
    });

    it('/scan/pumpfun runs the same simulation on its mint', async () => {
      const body = await scan('pumpfun', 'token:t22-hook-refuses');
      assert.ok(body.flags.includes('TRANSFER_BLOCKED'), `${body.flags}`);
    });

    it('a hook that lets transfers through, with extra accounts of every seed kind: none of the simulation flags', async () => {
      const expected = subject(manifest, 'token', 'token:t22-hook-allows').expect.transferSimulation!;
      const body = await scan('token', 'token:t22-hook-allows');
      assert.deepEqual(
        body.flags.filter((f: string) => SIMULATION_FLAGS.includes(f)),
        expected.raises,
      );
      assert.ok(body.flags.includes('TRANSFER_HOOK_ACTIVE'), 'the static flag stays');
      const simulation = body.evidence.transfer_simulation;
      assert.equal(simulation.outcome, 'transferred');
      assert.equal(simulation.received, simulation.amount, 'all of it arrived');
    });

    it('a clean token raises none, and is not simulated (its static read proves it)', async () => {
      const body = await scan('token', 'token:clean');
      // No pool was seeded for it: the missing market is its one flag, no transfer flag.
      assert.deepEqual(body.flags, ['MARKET_NONE']);
      assert.equal(body.evidence.transfer_simulation.ran, false);
    });

    it('holders whose wallets have no system account: the simulation brings its own fee payer, and the refusing hook is TRANSFER_BLOCKED', async () => {
      const name = 'token:t22-hook-refuses-unfunded';
      const expected = subject(manifest, 'token', name).expect.transferSimulation!;
      const body = await scan('token', name);
      for (const code of expected.raises) assert.ok(body.flags.includes(code), `${code} in ${body.flags}`);
      assert.ok(!body.flags.includes('TRANSFER_SIMULATION_UNAVAILABLE'), `${body.flags}`);
      assert.equal(body.evidence.flags.TRANSFER_BLOCKED.failing_program, expected.failingProgram);
      assert.ok(body.risk_score >= 0.85, `floored: ${body.risk_score}`);
      const pumpfun = await scan('pumpfun', name);
      assert.ok(pumpfun.flags.includes('TRANSFER_BLOCKED'), `${pumpfun.flags}`);
    });
  });
}
