/** The price rules: per call, per hour, per item (the batch's, before any endpoint uses it). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAID_ENDPOINTS } from '../../src/catalog.js';
import {
  atomicPrice,
  type PriceRule,
  purchasePriceUsd,
  purchaseRange,
  ruleText,
} from '../../src/terms/price.js';

const perCall: PriceRule = { per: 'call', usd: 0.3 };
const perHour: PriceRule = { per: 'hour', usd: 0.01, most: 168 };
const perItem: PriceRule = { per: 'item', usd: 0.02, most: 50 };

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

  it('a price per item is items × the price, from one item to the most a call may hold', () => {
    assert.equal(purchasePriceUsd(perItem, 1), 0.02);
    assert.equal(purchasePriceUsd(perItem, 7), 0.14);
    assert.equal(atomicPrice(purchasePriceUsd(perItem, 50)), '1000000');
    assert.deepEqual(purchaseRange(perItem), { min: 0.02, max: 1 });
    assert.equal(ruleText(perItem), '0.02 USDC per item');
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
      ],
    );
  });
});
