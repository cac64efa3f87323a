/**
 * The client package's prices, paths, flag codes and decisions are written from the service's
 * own catalog, flag catalogs and decision table (scripts/render-client-catalog.ts): this fails
 * when the package's copy is stale. Run `npm run docs` after changing a price, a path, a flag or
 * a decision.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as generated from '../../packages/client/src/generated/catalog.js';
import { renderClientCatalog } from '../../scripts/render-client-catalog.js';

/** The values the script would write now, read back from its text. */
async function rendered(): Promise<Record<string, unknown>> {
  const source = renderClientCatalog();
  const url = `data:text/javascript,${encodeURIComponent(source.replace(/ as const;/g, ';'))}`;
  return (await import(url)) as Record<string, unknown>;
}

describe('the client package’s generated catalog', () => {
  it('holds what the service’s catalog and flag catalogs say (run `npm run docs` when this fails)', async () => {
    const now = await rendered();
    assert.deepEqual(generated.ENDPOINTS, now.ENDPOINTS);
    assert.equal(generated.MAX_WATCH_HOURS, now.MAX_WATCH_HOURS);
    assert.deepEqual(generated.FLAGS_BY_ENDPOINT, now.FLAGS_BY_ENDPOINT);
    assert.deepEqual(generated.FLAG_CODES, now.FLAG_CODES);
    assert.deepEqual(generated.DECISIONS, now.DECISIONS);
    assert.deepEqual(generated.DECISION_TABLE, now.DECISION_TABLE);
  });

  it('knows every flag a scanner may raise, and every price', async () => {
    const { FLAG_CATALOGS } = await import('../../src/scans/registry.js');
    const { PAID_ENDPOINTS } = await import('../../src/catalog.js');
    for (const catalog of Object.values(FLAG_CATALOGS))
      for (const code of Object.keys(catalog))
        assert.ok((generated.FLAG_CODES as readonly string[]).includes(code), code);
    for (const endpoint of PAID_ENDPOINTS) {
      const known = generated.ENDPOINTS.find((e) => e.id === endpoint.id);
      assert.ok(known, endpoint.id);
      assert.equal(known.path, endpoint.path);
    }
  });

  it("carries the batch's rule: each kind at its single scan's price, and how many subjects one order may hold", async () => {
    const { GET_ENDPOINTS, MAX_BATCH_SUBJECTS } = await import('../../src/catalog.js');
    const batch = generated.ENDPOINTS.find((e) => e.id === 'batch');
    assert.ok(batch && 'priceUsdPerItem' in batch, 'the batch is priced per item');
    for (const [kind, usd] of Object.entries(batch.priceUsdPerItem)) {
      const single = GET_ENDPOINTS.find((e) => e.id === kind);
      assert.equal(usd, single?.price.usd, `${kind}: its single scan's price`);
    }
    assert.equal(batch.maxItems, MAX_BATCH_SUBJECTS);
  });
});
