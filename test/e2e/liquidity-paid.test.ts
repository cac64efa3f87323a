/**
 * The liquidity subjects, scanned the way a customer scans them: `risk-scan sandbox`'s own start-up
 * (seeded chain, facilitator, real scanners), the payer it writes to disk, the official x402
 * client and real HTTP — once with the sandbox RPC answering as the ideal node, once as an indexed
 * provider (no getProgramAccounts on large programs). Each result raises what the subject's
 * manifest entry says and nothing it rules out, and is paid for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

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
    const { find, scan, heldToManifest } = usePaidScenarioSandbox(profile);

    for (const name of SUBJECTS) {
      it(`/scan/token/{${name}}: the manifest's flags, none of its notFlags`, async () => {
        const s = find(name, 'token');
        const body = await scan('token', s.address);
        heldToManifest(s, body);
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
      const s = find('pumpfun:graduated');
      const body = await scan('pumpfun', s.address);
      const market = body.evidence.markets[0];
      assert.equal(market.dex, 'PumpSwap');
      assert.equal(market.pool, s.expect.pool?.address);
      assert.equal(market.quote_depth, 85);
      for (const code of ['MARKET_NONE', 'LIQUIDITY_THIN', 'LP_PULLABLE'])
        assert.ok(!body.flags.includes(code), code);
    });
  });
}
