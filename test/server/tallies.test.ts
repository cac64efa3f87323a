/**
 * Tallies reach /metrics in the very text prom-client writes for its own counters and
 * histograms: the same observations give the same exposition, buckets, sum and count included,
 * and a registry reset zeroes them as it zeroes prom-client's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { tallyCounter, tallyHistogram } from '../../src/server/tallies.js';

const BUCKETS = [0.01, 0.1, 1, 10];
const OBSERVED = [0.005, 0.01, 0.05, 0.2, 0.7, 3, 42];
const help = 'h';

function viaPromClient(): Registry {
  const registry = new Registry();
  const counter = new Counter({
    name: 'c_total',
    help,
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
  const histogram = new Histogram({
    name: 'd_seconds',
    help,
    labelNames: ['method'],
    buckets: BUCKETS,
    registers: [registry],
  });
  counter.inc({ method: 'getSlot', outcome: 'ok' }, 3);
  counter.inc({ method: 'getSlot', outcome: '429' }, 0);
  for (const v of OBSERVED) histogram.observe({ method: 'getSlot' }, v);
  return registry;
}

function viaTallies(): Registry {
  const registry = new Registry();
  const counter = tallyCounter(registry, { name: 'c_total', help });
  const histogram = tallyHistogram(registry, { name: 'd_seconds', help, buckets: BUCKETS });
  const ok = counter({ method: 'getSlot', outcome: 'ok' });
  counter({ method: 'getSlot', outcome: '429' });
  for (let i = 0; i < 3; i++) ok.inc();
  const timing = histogram({ method: 'getSlot' });
  for (const v of OBSERVED) timing.observe(v);
  return registry;
}

describe('tallies', () => {
  it('write the same exposition as prom-client for the same counts and observations', async () => {
    assert.equal(await viaTallies().metrics(), await viaPromClient().metrics());
  });

  it('are zeroed by a registry reset, series kept', async () => {
    const tallies = viaTallies();
    tallies.resetMetrics();
    const text = await tallies.metrics();
    assert.match(text, /^c_total\{method="getSlot",outcome="ok"\} 0$/m);
    assert.match(text, /^d_seconds_count\{method="getSlot"\} 0$/m);
    assert.match(text, /^d_seconds_bucket\{le="\+Inf",method="getSlot"\} 0$/m);
  });
});
