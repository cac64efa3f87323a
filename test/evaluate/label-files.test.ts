/**
 * The labelled lists shipped in fixtures/labels: the sandbox list names every seeded subject
 * (and nothing else), the mainnet sample says where each address and each bad label comes from.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseLabels } from '../../src/evaluate/labels.js';
import { classOf } from '../../src/evaluate/metrics.js';
import { seededChain } from '../helpers/seeded-chain.js';

const read = (name: string) =>
  parseLabels(readFileSync(new URL(`../../fixtures/labels/${name}`, import.meta.url), 'utf8'));

describe('fixtures/labels', () => {
  it('sandbox.csv labels every seeded subject, at its address and under its kind, and nothing else', async () => {
    const { chain, manifest } = await seededChain();
    chain.stop();
    const rows = read('sandbox.csv');
    const byScenario = new Map(rows.map((r) => [r.extra.scenario, r]));
    assert.equal(byScenario.size, rows.length, 'one row per scenario');
    for (const s of manifest.subjects) {
      const row = byScenario.get(s.name);
      assert.ok(row, `${s.name} is labelled`);
      assert.equal(row.endpoint, s.kind, s.name);
      assert.equal(row.address, 'signature' in s ? s.signature : s.address, s.name);
    }
    assert.equal(rows.length, manifest.subjects.length, 'no row for a subject the sandbox does not seed');
    for (const cls of ['bad', 'good'] as const)
      for (const kind of ['token', 'pumpfun', 'wallet', 'tx', 'program'])
        assert.ok(
          rows.some((r) => r.endpoint === kind && classOf(r.label) === cls),
          `${kind} has a ${cls} subject, so precision and recall are defined`,
        );
  });

  it('mainnet-sample.csv: every row names the source of its address; no address twice', () => {
    const rows = read('mainnet-sample.csv');
    assert.ok(rows.length >= 20, `${rows.length} rows`);
    for (const r of rows) assert.ok((r.extra.source ?? '').length > 10, `line ${r.line} has a source`);
    assert.equal(new Set(rows.map((r) => r.address)).size, rows.length);
    for (const mint of ['USDC', 'USDT', 'PYUSD', 'mSOL', 'JitoSOL'])
      assert.ok(
        rows.some((r) => r.note.startsWith(mint) && r.label === 'legit'),
        `${mint} is labelled legit`,
      );
  });

  it('mainnet-sample.csv has bad tokens, wallets and transactions, each from a source at a commit', () => {
    const rows = read('mainnet-sample.csv');
    for (const kind of ['token', 'wallet', 'tx'])
      assert.ok(
        rows.some((r) => r.endpoint === kind && classOf(r.label) === 'bad'),
        `${kind} has a bad subject, so recall is defined on mainnet`,
      );
    for (const r of rows.filter((r) => classOf(r.label) === 'bad'))
      assert.match(
        r.extra.source ?? '',
        /@[0-9a-f]{8}/,
        `line ${r.line} names the commit its label comes from`,
      );
  });
});
