/**
 * Insiders by funding the way a customer meets them: `risk-scan sandbox`'s own start-up under the
 * `ideal`, `indexed-provider` and `public-mainnet` RPC profiles, the official x402 client and real
 * HTTP. Wallets the creator funded before the launch (directly or through one intermediate wallet)
 * are held to their manifest entries where the RPC lists the largest holders; wallets an exchange
 * paid out to never cluster. The public endpoint refuses the largest holders: that is said, it
 * lowers confidence, and no cluster share is invented.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

const PUMP_COINS = [
  'pumpfun:insiders-creator-funded',
  'pumpfun:insiders-via-intermediate',
  'pumpfun:insiders-exchange-funded',
];

for (const profile of ['ideal', 'indexed-provider', 'public-mainnet'] as const) {
  describe(`insiders by funding through the paid HTTP path, ${profile} RPC profile`, () => {
    const { find, scan, heldToManifest } = usePaidScenarioSandbox(profile);
    const listsHolders = profile !== 'public-mainnet';

    for (const name of PUMP_COINS) {
      it(`/scan/pumpfun/{${name}}: ${listsHolders ? 'its manifest entry' : 'delivered, the refusal said, nothing invented'}`, async () => {
        const s = find(name);
        const body = await scan('pumpfun', s.address);
        if (listsHolders) {
          heldToManifest(s, body);
          return;
        }
        assert.match(body.evidence.insiders.not_traced.holders, /largest holders could not be read/);
        assert.ok(!body.flags.includes('INSIDER_CLUSTER'), String(body.flags));
        assert.ok(body.flags.includes('HOLDERS_UNAVAILABLE'), String(body.flags));
        assert.ok(body.confidence < 1);
      });
    }

    it('the creator’s cluster names its funder, hop count and share; through an intermediate at hop 2', async () => {
      if (!listsHolders) return;
      for (const [name, hops, share] of [
        ['pumpfun:insiders-creator-funded', 1, 0.2],
        ['pumpfun:insiders-via-intermediate', 2, 0.12],
      ] as const) {
        const s = find(name);
        const body = await scan('pumpfun', s.address);
        const [cluster] = body.evidence.flags.INSIDER_CLUSTER.clusters;
        assert.deepEqual(
          [cluster.kind, cluster.funder, cluster.hops, cluster.wallets.length, cluster.share],
          ['creator', s.expect.creator, hops, 4, share],
        );
      }
    });

    it('/scan/token/{token:insiders-creator-funded}: the plain SPL token’s holders the creator funded', async () => {
      const s = find('token:insiders-creator-funded', 'token');
      const body = await scan('token', s.address);
      if (listsHolders) {
        heldToManifest(s, body);
        assert.equal(body.evidence.flags.INSIDER_CLUSTER.clusters[0].kind, 'creator');
        return;
      }
      assert.match(body.evidence.insiders.not_traced.holders, /largest holders could not be read/);
      assert.ok(!body.flags.includes('INSIDER_CLUSTER'), String(body.flags));
      assert.ok(body.confidence < 1);
    });
  });
}
