/**
 * The liquidity subjects, scanned the way a customer scans them: `risk-scan sandbox`'s own start-up
 * (seeded chain, facilitator, real scanners), the payer it writes to disk, the official x402
 * client and real HTTP — once with the sandbox RPC answering as the ideal node, once as an indexed
 * provider (no getProgramAccounts on large programs). Each result raises what the subject's
 * manifest entry says and nothing it rules out, and is paid for.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';
import { jsonOf } from '../helpers/service.js';

const SUBJECTS = [
  'token:pool-lp-burned',
  'token:pool-lp-creator',
  'token:pool-lp-jup-locked',
  'token:pool-amm-v4-lp-creator',
  'token:pool-amm-v4-pc-side',
  'token:pool-thin',
  'token:no-market',
  'token:pool-owned',
  'token:pool-meteora-damm-v2',
  'token:pool-meteora-damm-v1',
  'token:pool-meteora-damm-v1-locked',
];

for (const profile of ['ideal', 'indexed-provider'] as const) {
  describe(`liquidity subjects through the paid HTTP path (${profile} RPC)`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'liquidity-'));
    let sandbox: RunningSandbox;
    let subjects: ScenarioSubject[];
    let pay: typeof fetch;

    before(async () => {
      sandbox = await startCustomerSandbox(dir, profile);
      subjects = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')).subjects;
      pay = await payingFetch(sandbox);
    });
    after(async () => {
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const paidScan = async (path: string, address: string) => {
      const res = await pay(`${sandbox.api.url}${path}${address}`);
      const body = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.ok(res.headers.get('payment-response'), 'a settlement receipt comes with the result');
      return body as { flags: string[]; evidence: any; reasoning: string[] };
    };

    for (const name of SUBJECTS) {
      it(`/scan/token/{${name}}: the manifest's flags, none of its notFlags`, async () => {
        const s = subjects.find((x) => x.name === name) as Extract<ScenarioSubject, { kind: 'token' }>;
        assert.ok(s, `the manifest lists ${name}`);
        const body = await paidScan('/scan/token/', s.address);
        for (const code of s.expect.flags ?? [])
          assert.ok(body.flags.includes(code), `${code} in ${body.flags}`);
        for (const code of s.expect.notFlags ?? [])
          assert.ok(!body.flags.includes(code), `${code} not in ${body.flags}`);
        if (s.expect.market) assert.equal(body.evidence.markets[0].pool, s.expect.market.pool);
        const locker = s.expect.market?.lpLocker;
        if (locker)
          assert.deepEqual(
            body.evidence.flags.LP_BURNED_OR_LOCKED.lockers.map((l: { name: string; unlocks_at: string }) => [
              l.name,
              l.unlocks_at,
            ]),
            [[locker.name, locker.unlocksAt]],
          );
      });
    }

    it('/scan/pumpfun/{pumpfun:graduated}: its PumpSwap pool is the market, 85 SOL deep, not thin', async () => {
      const s = subjects.find((x) => x.name === 'pumpfun:graduated') as Extract<
        ScenarioSubject,
        { kind: 'pumpfun' }
      >;
      const body = await paidScan('/scan/pumpfun/', s.address);
      const market = body.evidence.markets[0];
      assert.equal(market.dex, 'PumpSwap');
      assert.equal(market.pool, s.expect.pool?.address);
      assert.equal(market.quote_depth, 85);
      for (const code of ['MARKET_NONE', 'LIQUIDITY_THIN', 'LP_PULLABLE'])
        assert.ok(!body.flags.includes(code), code);
    });
  });
}
