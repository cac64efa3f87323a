/**
 * Creator history the way a customer meets it: `risk-scan sandbox`'s own start-up (whose probe
 * decides whether getProgramAccounts on pump.fun is used) under the `ideal`, `indexed-provider` and
 * `public-mainnet` RPC profiles, the official x402 client and real HTTP. The serial launcher whose
 * earlier token accounts are closed and the creator who dumped its dev buy are held to their
 * manifest entries where the RPC serves a source that sees them; on the public endpoint the
 * refusal is named and lowers confidence, and the scan is still delivered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

for (const profile of ['ideal', 'indexed-provider', 'public-mainnet'] as const) {
  describe(`creator history through the paid HTTP path, ${profile} RPC profile`, () => {
    const { find, scan: paid, heldToManifest } = usePaidScenarioSandbox(profile);
    const scan = (mint: string) => paid('pumpfun', mint);

    it('the serial launcher whose earlier token accounts are closed', async () => {
      const s = find('pumpfun:serial-closed');
      const body = await scan(s.address);
      const history = body.evidence.creator_launches;
      if (profile === 'ideal') {
        heldToManifest(s, body);
        assert.match(history.sources.program_accounts, /^read: 13 curve/);
        assert.equal(history.launches, 13);
        assert.equal(history.list_complete, true);
        return;
      }
      // getProgramAccounts refused, and said so: never sent after the probe.
      assert.match(history.sources.program_accounts, /refuses getProgramAccounts/);
      if (profile === 'indexed-provider') {
        heldToManifest(s, body);
        assert.equal(history.list_complete, false);
        return;
      }
      // The public endpoint: its rate limit may cut the transactions; what is cut is said, and a
      // history left partial lowers confidence instead of inventing a verdict.
      assert.ok(
        typeof history.sources.transactions === 'object' || /unavailable/.test(history.sources.transactions),
      );
      if (!body.flags.includes('CREATOR_SERIAL_LAUNCHER')) {
        assert.ok(body.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(body.flags));
        assert.ok(body.confidence < 1);
      }
    });

    it('the creator who dumped its dev buy', async () => {
      const s = find('pumpfun:dev-dump');
      const body = await scan(s.address);
      if (profile !== 'public-mainnet') {
        heldToManifest(s, body);
        const dump = body.evidence.flags.CREATOR_DEV_DUMP;
        assert.equal(dump.sold, dump.dev_buy);
        return;
      }
      assert.match(body.evidence.creator_launches.sources.program_accounts, /refuses getProgramAccounts/);
      assert.ok(!body.flags.includes('CREATOR_SERIAL_LAUNCHER'), String(body.flags));
      if (!body.flags.includes('CREATOR_DEV_DUMP')) {
        assert.ok(body.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(body.flags));
      }
    });
  });
}
