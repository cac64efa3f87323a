/**
 * Launch forensics the way a customer meets it: `risk-scan sandbox`'s own start-up under the
 * `ideal` and the `indexed-provider` RPC profiles, the payer it writes to disk, the official x402
 * client and real HTTP. The bundled launch must name its creation-slot wallets and the creator
 * that funded them; the fair launch must raise none of the launch flags. Each subject is held to
 * the flags its manifest entry says it raises (`expect.flags`) and must not (`expect.notFlags`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { usePaidScenarioSandbox } from '../helpers/paid-scenario-sandbox.js';

for (const profile of ['ideal', 'indexed-provider'] as const) {
  describe(`launch forensics through the paid HTTP path, ${profile} RPC profile`, () => {
    const { find, scan, heldToManifest } = usePaidScenarioSandbox(profile);

    for (const path of ['token', 'pumpfun'] as const) {
      it(`/scan/${path}: the bundled launch names its creation-slot wallets, the creator that funded them, and what they still hold`, async () => {
        const s = find('pumpfun:launch-bundled');
        const body = await scan(path, s.address);
        heldToManifest(s, body);
        const launch = s.expect.launch!;
        const bundled = body.evidence.flags.LAUNCH_BUNDLED;
        assert.equal(String(bundled.creation_slot), launch.creationSlot);
        const wallets = (list: { wallet: string }[]) => list.map((w) => w.wallet).sort();
        assert.deepEqual(wallets(bundled.wallets), [...launch.creationSlotBuyers].sort());
        const insiders = body.evidence.flags.LAUNCH_INSIDERS;
        assert.deepEqual([insiders.funder, insiders.funder_is_creator], [s.expect.creator, true]);
        assert.deepEqual(wallets(insiders.wallets), [...launch.creatorFunded].sort());
        assert.equal(body.evidence.flags.LAUNCH_SNIPERS_HOLD.held_share, 0.15);
        assert.equal(body.evidence.launch.creator, s.expect.creator);
      });

      it(`/scan/${path}: the fair launch is read, and raises no launch flag`, async () => {
        const s = find('pumpfun:launch-fair');
        const body = await scan(path, s.address);
        heldToManifest(s, body);
        assert.equal(body.evidence.launch.checked, true);
        assert.equal(String(body.evidence.launch.creation_slot), s.expect.launch!.creationSlot);
        assert.equal(body.evidence.launch.creation_slot_buyers, 0);
        assert.equal(
          body.evidence.launch.buyers_count,
          1,
          'one stranger bought two slots after the creation',
        );
      });
    }
  });
}
