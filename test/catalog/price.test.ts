/** The price rules: per call, per hour, per item (POST /scan/batch's). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAID_ENDPOINTS } from '../../src/catalog.js';
import {
  atomicPrice,
  itemsPriceUsd,
  type PriceRule,
  purchasePriceUsd,
  purchaseRange,
  ruleText,
} from '../../src/terms/price.js';

const perCall: PriceRule = { per: 'call', usd: 0.3 };
const perHour: PriceRule = { per: 'hour', usd: 0.01, most: 168 };
const perItem = { per: 'item', usd: { wallet: 0.02, token: 0.3, pumpfun: 0.5 }, most: 25 } as const;

describe('price rules', () => {
  it('a price per call is the same whatever the input asks for', () => {
    assert.equal(purchasePriceUsd(perCall), 0.3);
    assert.equal(purchasePriceUsd(perCall, 7), 0.3);
    assert.deepEqual(purchaseRange(perCall), { min: 0.3, max: 0.3 });
    assert.equal(ruleText(perCall), '0.30 USDC per call');
  });

  it('a price per hour is hours × the price, to the USDC atomic unit', () => {
    assert.equal(purchasePriceUsd(perHour, 3), 0.03);
    assert.equal(atomicPrice(purchasePriceUsd(perHour, 24)), '240000');
    assert.deepEqual(purchaseRange(perHour), { min: 0.01, max: 1.68 });
    assert.equal(ruleText(perHour), '0.01 USDC per hour');
  });

  it("a price per item is, per distinct item, its kind's price, from one cheapest item to the most of the dearest", () => {
    assert.equal(purchasePriceUsd(perItem, 1), 0.02);
    assert.equal(itemsPriceUsd(perItem, 'token', 7), 2.1);
    assert.equal(atomicPrice(itemsPriceUsd(perItem, 'pumpfun', 25)), '12500000');
    assert.deepEqual(purchaseRange(perItem), { min: 0.02, max: 12.5 });
    assert.equal(ruleText(perItem), '0.02 to 0.50 USDC per item (the single scan price of its kind)');
  });

  it("the operator's discount comes off each item, exact to the atomic unit", () => {
    assert.equal(atomicPrice(itemsPriceUsd(perItem, 'token', 3, 10)), '810000');
    // 0.02 × 0.67 = 0.0134 USDC: 13400 units, no float drift at any count.
    for (let n = 1; n <= 25; n++)
      assert.equal(atomicPrice(itemsPriceUsd(perItem, 'wallet', n, 33)), String(13400 * n));
    assert.deepEqual(purchaseRange(perItem, 10), { min: 0.018, max: 11.25 });
    assert.equal(
      ruleText(perItem, 10),
      '0.018 to 0.45 USDC per item (the single scan price of its kind, less 10 %)',
    );
  });

  it("the batch's items cost what their GET scans cost: the catalog says each price once", () => {
    const batch = PAID_ENDPOINTS.find((e) => e.path === '/scan/batch')!;
    const single = (path: string) => PAID_ENDPOINTS.find((e) => e.path === path)!.price.usd;
    assert.deepEqual(batch.price, {
      per: 'item',
      usd: {
        token: single('/scan/token/{mint}'),
        pumpfun: single('/scan/pumpfun/{mint}'),
        wallet: single('/scan/wallet/{address}'),
      },
      most: 25,
    });
  });

  it('every endpoint has a rule: the GETs and /simulate/tx per call, /watch per hour up to a week', () => {
    assert.deepEqual(
      PAID_ENDPOINTS.map((e) => [e.path, e.price.per]),
      [
        ['/scan/pumpfun/{mint}', 'call'],
        ['/scan/token/{mint}', 'call'],
        ['/scan/wallet/{address}', 'call'],
        ['/verify/tx/{signature}', 'call'],
        ['/scan/program/{id}', 'call'],
        ['/simulate/tx', 'call'],
        ['/watch', 'hour'],
        ['/scan/batch', 'item'],
      ],
    );
  });
});
