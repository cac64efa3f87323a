/**
 * SIGTERM in the middle of paid load, on the API as its own process: three paid calls are
 * settling through a slow facilitator (its settle lands on chain, and its answer comes back
 * 12 s later, past the old 10 s drain) when the process is told to stop. Every one of them is
 * delivered, the process exits 0, and after a restart on the same STATE_DIR each payment header
 * replays its stored 200, charged once.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { selling } from '../../src/service/index.js';
import { type ApiProcess, startApiProcess } from '../helpers/api-process.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';

const PRICE = 20_000n; // /scan/wallet
const SLOW_SETTLE_MS = 12_000;
const PUBLIC_BASE_URL = 'https://scan.test';

describe('graceful shutdown under paid load', { timeout: 120_000 }, () => {
  it('SIGTERM while settling: every settled call delivered, exit 0, each payment replayable after restart', async () => {
    const s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const stateDir = await mkdtemp(join(tmpdir(), 'shutdown-state-'));
    const facilitator = await startFaultProxy(s.facilitators[0]!.url, ({ method }) =>
      method === 'POST /settle' ? { kind: 'latency', ms: SLOW_SETTLE_MS } : { kind: 'pass' },
    );
    const apis: ApiProcess[] = [];
    const startApi = async () => {
      const api = await startApiProcess({
        RISK_SCAN_MODE: 'mainnet',
        PAY_TO: s.payTo,
        PUBLIC_BASE_URL,
        SOLANA_RPC_URL: s.rpcServer.url,
        FACILITATOR_URLS: facilitator.url,
        STATE_DIR: stateDir,
        SCAN_TIMEOUT_MS: '5000',
        FACILITATOR_TIMEOUT_MS: '3000',
        SETTLE_TIMEOUT_MS: '30000',
        CONFIRM_WINDOW_MS: '1000',
        RPC_TIMEOUT_MS: '2000',
      });
      apis.push(api);
      return api;
    };
    try {
      const first = await startApi();
      const paths = [s.payer.address, s.payTo, s.facilitators[1]!.feePayer].map((a) => `/scan/wallet/${a}`);
      const headers = await Promise.all(
        paths.map(async (path) => {
          const offer = await offerOf(first.url + path);
          return encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
        }),
      );
      const before = await s.balances();
      const calls = paths.map((path, i) => pay(first.url + path, headers[i]!));
      while ((facilitator.seen.get('POST /settle') ?? 0) < paths.length) await sleep(20);

      const exited = first.stop(); // SIGTERM with every call waiting for its settle's answer
      const answers = await Promise.all(calls);
      const bodies = await Promise.all(answers.map((r) => r.text()));
      for (const [i, r] of answers.entries()) assert.equal(r.status, 200, bodies[i]);
      await exited;
      assert.equal(first.child.exitCode, 0, 'a clean exit, not a forced one');
      assert.deepEqual(await s.balances(), {
        payer: before.payer - 3n * PRICE,
        payTo: before.payTo + 3n * PRICE,
      });

      const restarted = await startApi();
      for (const [i, path] of paths.entries()) {
        const replay = await pay(restarted.url + path, headers[i]!);
        assert.equal(replay.status, 200);
        assert.equal(await replay.text(), bodies[i], 'the stored response, same request_id');
      }
      assert.deepEqual((await s.balances()).payTo, before.payTo + 3n * PRICE, 'charged once each');
    } finally {
      for (const api of apis) await api.kill();
      await facilitator.close();
      await s.close();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
