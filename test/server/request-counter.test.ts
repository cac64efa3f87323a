/**
 * The unpaid lane's 402s are tallied as plain numbers and handed to the request counter when
 * it is scraped: a scrape must show every one exactly once, in the same series the routed
 * answers count in, and a second scrape must not count them again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMetrics } from '../../src/server/metrics.js';
import { sampleValue } from '../helpers/prometheus.js';

const NAME = 'risk_scan_http_requests_total';
const OFFERS = { route: '/scan/token/:mint', status: '402' };

describe('request counter tallies', () => {
  it('a tally adds to the route and status counted by routed answers, once per increment', async () => {
    const metrics = createMetrics();
    const lane = metrics.requestCounter(OFFERS.route, 402);
    for (let i = 0; i < 3; i++) lane.inc();
    metrics.request(OFFERS.route, 402, 0.001);
    assert.equal(sampleValue(await metrics.scrape(), NAME, OFFERS), 4);
    assert.equal(
      sampleValue(await metrics.scrape(), NAME, OFFERS),
      4,
      'a second scrape counts nothing again',
    );
    lane.inc();
    assert.equal(sampleValue(await metrics.scrape(), NAME, OFFERS), 5);
  });

  it('each tally counts under its own labels, and two tallies of one series add up', async () => {
    const metrics = createMetrics();
    const token = metrics.requestCounter(OFFERS.route, 402);
    const again = metrics.requestCounter(OFFERS.route, 402);
    const wallet = metrics.requestCounter('/scan/wallet/:address', 402);
    token.inc();
    again.inc();
    wallet.inc();
    const text = await metrics.scrape();
    assert.equal(sampleValue(text, NAME, OFFERS), 2);
    assert.equal(sampleValue(text, NAME, { route: '/scan/wallet/:address', status: '402' }), 1);
  });

  it('counts kept by one service are not seen by another in the same process', async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.requestCounter(OFFERS.route, 402).inc();
    assert.equal(sampleValue(await second.scrape(), NAME, OFFERS), 0);
    assert.equal(sampleValue(await first.scrape(), NAME, OFFERS), 1);
  });
});
