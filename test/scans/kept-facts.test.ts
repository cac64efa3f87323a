/**
 * Facts kept across scans (src/scans/fact-store.ts) on the seeded sandbox, every RPC call counted:
 * a second scan of another coin of the same creator sends fewer calls than the same scan with
 * nothing kept, with the same flags and score, and its evidence says which facts were kept and at
 * which slots; on a chain where nothing is finalized yet, nothing is kept and a second scan sends
 * every call again. /verify/tx of a finalized transaction, scanned again, reads nothing; a wallet
 * scanned again reads its account and history page, not the transactions they point at.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ScenarioManifest, subject } from '../../src/sandbox/scenarios/index.js';
import type { FactStore } from '../../src/scans/fact-store.js';
import { scanPumpfun } from '../../src/scans/pumpfun/index.js';
import type { Scanner } from '../../src/scans/scanner.js';
import { scanToken } from '../../src/scans/token/index.js';
import { TRANSACTION_FACT } from '../../src/scans/token-facts/kept-transactions.js';
import { verifyTransaction } from '../../src/scans/tx/index.js';
import { scanWallet } from '../../src/scans/wallet/index.js';
import { createMemoryFactStore } from '../../src/state/facts/memory.js';
import { countedScan as scan, useSandbox } from '../helpers/counted-scans.js';

/** The dumper's thirteen coins, newest last (the manifest names them with its newest). */
const dumperCoins = (manifest: ScenarioManifest) =>
  subject(manifest, 'pumpfun', 'pumpfun:dumper-latest').expect.creatorLaunches!.mints;

describe('facts kept across scans: another coin of the same creator', { timeout: 300_000 }, () => {
  const sandbox = useSandbox();

  for (const [endpoint, scanner] of [
    ['pumpfun', scanPumpfun],
    ['token', scanToken],
  ] as const) {
    it(`/scan/${endpoint}: the second coin's scan sends fewer calls than with nothing kept, same flags and score`, async () => {
      const coins = dumperCoins(sandbox.manifest);
      const [newest, other] = [coins.at(-1)!, coins.at(-4)!];
      const facts = createMemoryFactStore();
      const first = await scan(sandbox, scanner, newest, facts);
      const fresh = await scan(sandbox, scanner, other);
      const repeated = await scan(sandbox, scanner, other, facts);
      assert.deepEqual(repeated.result.flags, fresh.result.flags);
      assert.equal(repeated.result.risk_score, fresh.result.risk_score);
      assert.ok(
        repeated.calls < fresh.calls,
        `with the creator's transactions kept: ${repeated.calls} calls, with nothing kept: ${fresh.calls}`,
      );
      assert.ok(
        repeated.byMethod('getTransaction') < fresh.byMethod('getTransaction'),
        `${repeated.byMethod('getTransaction')} getTransaction calls vs ${fresh.byMethod('getTransaction')}`,
      );
      // The evidence says where the history's transactions came from: kept, read at which slots.
      const history = repeated.evidence.creator_launches.sources.transactions;
      assert.equal(first.evidence.creator_launches.sources.transactions.from_kept_facts, undefined);
      assert.equal(fresh.evidence.creator_launches.sources.transactions.from_kept_facts, undefined);
      assert.ok(history.from_kept_facts.transactions > 0, JSON.stringify(history));
      const [low, high] = history.from_kept_facts.read_at_slots;
      assert.ok(
        Number.isInteger(low) && low <= high && high <= Number(sandbox.chain.sync()),
        `${low}–${high}`,
      );
      // Same launches found, whichever way the transactions came.
      assert.equal(repeated.evidence.creator_launches.launches, fresh.evidence.creator_launches.launches);
    });
  }

  it('the same coin scanned again reads none of its transactions from the RPC a second time', async () => {
    const coin = dumperCoins(sandbox.manifest).at(-2)!;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, scanPumpfun, coin, facts);
    const again = await scan(sandbox, scanPumpfun, coin, facts);
    assert.ok(first.byMethod('getTransaction') > 0);
    assert.equal(
      again.byMethod('getTransaction'),
      0,
      `${again.byMethod('getTransaction')} getTransaction calls`,
    );
    assert.deepEqual(again.result.flags, first.result.flags);
    assert.equal(again.result.risk_score, first.result.risk_score);
  });

  it('insiders by funding: a funder traced again is served its kept first funding, same clusters', async () => {
    const coin = subject(sandbox.manifest, 'pumpfun', 'pumpfun:insiders-via-intermediate').address;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, scanPumpfun, coin, facts);
    const again = await scan(sandbox, scanPumpfun, coin, facts);
    const kept = again.evidence.insiders.from_kept_facts;
    // Within one scan a transaction the launch read may serve the trace; no first funding is kept yet.
    assert.equal(first.evidence.insiders.from_kept_facts?.first_fundings ?? 0, 0);
    assert.ok(kept.first_fundings >= 1 && kept.transactions >= 1, JSON.stringify(kept));
    assert.ok(again.calls < first.calls, `${again.calls} calls, then ${first.calls}`);
    assert.ok(
      again.byMethod('getSignaturesForAddress') < first.byMethod('getSignaturesForAddress'),
      'the intermediate’s own page is not read again',
    );
    assert.deepEqual(again.result.flags, first.result.flags);
    assert.deepEqual(again.evidence.insiders.clusters, first.evidence.insiders.clusters);
  });
});

describe('facts kept across scans: a transaction verified again, a wallet scanned again', {
  timeout: 300_000,
}, () => {
  const sandbox = useSandbox();

  it('reads nothing the second time, and says its facts were kept, read at their slot', async () => {
    const signature = subject(sandbox.manifest, 'tx', 'tx:high-priority-fee').signature;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, verifyTransaction, signature, facts);
    const again = await scan(sandbox, verifyTransaction, signature, facts);
    assert.equal(first.calls, 2);
    assert.equal(again.calls, 0);
    assert.deepEqual(again.result.flags, first.result.flags);
    assert.equal(again.result.risk_score, first.result.risk_score);
    const { from_kept_facts, ...rest } = again.evidence;
    assert.deepEqual(from_kept_facts, { read_at_slot: Number(first.evidence.slot) });
    assert.deepEqual(rest, first.evidence);
  });

  it('/scan/wallet again: its account and page, none of the transactions they point at', async () => {
    const wallet = subject(sandbox.manifest, 'wallet', 'wallet:pump-serial-creator').address;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, scanWallet, wallet, facts);
    const again = await scan(sandbox, scanWallet, wallet, facts);
    assert.ok(first.byMethod('getTransaction') > 0);
    assert.equal(again.byMethod('getTransaction'), 0);
    assert.deepEqual(again.result.flags, first.result.flags);
    assert.equal(again.result.risk_score, first.result.risk_score);
    const { from_kept_facts, ...rest } = again.evidence;
    assert.equal(from_kept_facts.transactions, first.byMethod('getTransaction'));
    assert.deepEqual(rest, first.evidence);
  });

  it('a store whose kept text is damaged is passed by: every scan reads the RPC, as with none', async () => {
    // Whatever was kept comes back as text that is no JSON (a damaged entry, another writer's).
    const kept = createMemoryFactStore();
    const damaged: FactStore = {
      get: async (address, fact) => {
        const found = await kept.get(address, fact);
        return found === undefined ? undefined : { ...found, value: '{"cut short' };
      },
      put: (address, fact, read) => kept.put(address, fact, read),
    };
    const subjects: [Scanner, string][] = [
      [verifyTransaction, subject(sandbox.manifest, 'tx', 'tx:high-priority-fee').signature],
      [scanWallet, subject(sandbox.manifest, 'wallet', 'wallet:pump-serial-creator').address],
      [scanPumpfun, subject(sandbox.manifest, 'pumpfun', 'pumpfun:insiders-via-intermediate').address],
    ];
    for (const [scanner, address] of subjects) {
      const fresh = await scan(sandbox, scanner, address);
      await scan(sandbox, scanner, address, damaged);
      const again = await scan(sandbox, scanner, address, damaged);
      assert.deepEqual(again.result.flags, fresh.result.flags, address);
      assert.equal(again.result.risk_score, fresh.result.risk_score, address);
      assert.equal(again.byMethod('getTransaction'), fresh.byMethod('getTransaction'), address);
    }
  });
});

describe('facts kept across scans: nothing read at a slot not yet finalized', { timeout: 300_000 }, () => {
  // Every seeded transaction within the root distance: confirmed, none finalized yet.
  const sandbox = useSandbox({ finalityDepth: 1_000_000_000 });

  it('a scan keeps none of them, and a second scan sends every call again', async () => {
    const coin = dumperCoins(sandbox.manifest).at(-1)!;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, scanPumpfun, coin, facts);
    const again = await scan(sandbox, scanPumpfun, coin, facts);
    assert.ok(first.byMethod('getTransaction') > 0);
    assert.equal(again.byMethod('getTransaction'), first.byMethod('getTransaction'));
    assert.equal(again.calls, first.calls);
    assert.equal(again.evidence.creator_launches.sources.transactions.from_kept_facts, undefined);
    const signatures = sandbox.chain.signaturesFor(coin);
    assert.ok(signatures.length > 0);
    for (const signature of signatures) assert.equal(await facts.get(signature, TRANSACTION_FACT), undefined);
  });

  it('/verify/tx of a transaction only confirmed: kept nowhere, read again', async () => {
    const signature = subject(sandbox.manifest, 'tx', 'tx:high-priority-fee').signature;
    const facts = createMemoryFactStore();
    const first = await scan(sandbox, verifyTransaction, signature, facts);
    const again = await scan(sandbox, verifyTransaction, signature, facts);
    assert.equal(first.evidence.confirmation_status, 'confirmed');
    assert.deepEqual([first.calls, again.calls], [2, 2]);
    assert.equal(again.evidence.from_kept_facts, undefined);
  });
});
