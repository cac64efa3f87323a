/**
 * Creator history the way a customer meets it, on /scan/pumpfun and on /scan/token (a pump.fun mint): `risk-scan sandbox`'s own start-up (whose probe
 * decides whether getProgramAccounts on pump.fun is used) under the `ideal`, `indexed-provider` and
 * `public-mainnet` RPC profiles, the official x402 client and real HTTP. The serial launcher whose
 * earlier token accounts are closed and the creator who dumped its dev buy are held to their
 * manifest entries where the RPC serves a source that sees them; on the public endpoint the
 * refusal is named and lowers confidence, and the scan is still delivered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREATOR_HISTORY_FLAGS } from '../../src/scans/creator-history/flags.js';
import { type AddressSubject, usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

const PATHS = ['pumpfun', 'token'] as const;
type Path = (typeof PATHS)[number];

for (const profile of ['ideal', 'indexed-provider', 'public-mainnet'] as const) {
  describe(`creator history through the paid HTTP path, ${profile} RPC profile`, () => {
    const paid = usePaidScenarioSandbox(profile);
    const { find } = paid;
    const scan = (mint: string, path: Path) => paid.scan(path, mint);
    /** The manifest's flags for the coin (on /scan/token, those of its creator history). */
    const heldToManifest = (s: AddressSubject, body: { flags: string[] }, path: Path) =>
      paid.heldToManifest(s, body, (code) => path === 'pumpfun' || code in CREATOR_HISTORY_FLAGS);

    // The same creator history on both token scans: /scan/token runs it on a pump.fun mint.
    for (const path of PATHS) {
      it(`/scan/${path}: the serial launcher whose earlier token accounts are closed`, async () => {
        const s = find('pumpfun:serial-closed');
        const body = await scan(s.address, path);
        const history = body.evidence.creator_launches;
        if (profile === 'ideal') {
          heldToManifest(s, body, path);
          assert.match(history.sources.program_accounts, /^read: 13 curve/);
          assert.equal(history.launches, 13);
          assert.equal(history.list_complete, true);
          return;
        }
        // getProgramAccounts refused, and said so: never sent after the probe.
        assert.match(history.sources.program_accounts, /refuses getProgramAccounts/);
        if (profile === 'indexed-provider') {
          heldToManifest(s, body, path);
          assert.equal(history.list_complete, false);
          return;
        }
        // The public endpoint: its rate limit may cut the transactions; what is cut is said, and a
        // history left partial lowers confidence instead of inventing a verdict.
        assert.ok(
          typeof history.sources.transactions === 'object' ||
            /unavailable/.test(history.sources.transactions),
        );
        if (!body.flags.includes('CREATOR_SERIAL_LAUNCHER')) {
          assert.ok(body.flags.includes('CREATOR_HISTORY_UNAVAILABLE'), String(body.flags));
          assert.ok(body.confidence < 1);
        }
      });

      it(`/scan/${path}: the creator who dumped its dev buy`, async () => {
        const s = find('pumpfun:dev-dump');
        const body = await scan(s.address, path);
        if (profile !== 'public-mainnet') {
          heldToManifest(s, body, path);
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
    }

    it('/scan/token: a mint not on pump.fun says so, and has no creator flag', async () => {
      const s = find('token:clean', 'token');
      const body = await scan(s.address, 'token');
      assert.equal(body.evidence.creator_launches.checked, false);
      assert.match(body.evidence.creator_launches.reason, /^not a pump\.fun mint/);
      assert.ok(!body.flags.some((f: string) => f in CREATOR_HISTORY_FLAGS), String(body.flags));
    });
  });
}
