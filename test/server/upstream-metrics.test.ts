/**
 * The upstream metrics on a registry of their own: endpoints labelled by host and position only
 * (an API key in a URL's path or query never reaches the text), every label child shown at 0
 * before anything happened (so rates and alerts work from the first scrape), and an abandoned
 * RPC call counted but not timed (its duration is the caller's deadline, not the endpoint's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createFacilitatorMetrics, createRpcMetrics } from '../../src/server/upstream-metrics.js';
import { sampleSum, sampleValue } from '../helpers/prometheus.js';

const KEYED_RPC = 'https://rpc.example.com/v2/SECRET-PATH?api-key=SECRET-QUERY';
const SPARE_RPC = 'https://rpc.example.com/other';

describe('upstream metrics', () => {
  it('RPC: host and position, never the path or query; abandoned calls counted, not timed', async () => {
    const registry = new Registry();
    const rpc = createRpcMetrics(registry, [KEYED_RPC, SPARE_RPC]);
    rpc.call(0, 'getSlot', 'ok', 0.02);
    rpc.call(1, 'getSlot', 'abandoned', 3);
    rpc.retry('getSlot');
    rpc.breakerChanged(1, 'open');
    const text = await registry.metrics();
    assert.doesNotMatch(text, /SECRET/);
    const at = (position: string) => ({ method: 'getSlot', host: 'rpc.example.com', position });
    assert.equal(sampleValue(text, 'risk_scan_rpc_calls_total', { ...at('1'), outcome: 'ok' }), 1);
    assert.equal(sampleValue(text, 'risk_scan_rpc_calls_total', { ...at('2'), outcome: 'abandoned' }), 1);
    assert.equal(sampleSum(text, 'risk_scan_rpc_calls_total'), 2);
    assert.equal(sampleValue(text, 'risk_scan_rpc_call_duration_seconds_count', at('1')), 1);
    assert.equal(sampleValue(text, 'risk_scan_rpc_call_duration_seconds_count', at('2')), 0);
    assert.equal(sampleValue(text, 'risk_scan_rpc_retries_total', { method: 'getSlot' }), 1);
    const breaker = { host: 'rpc.example.com', position: '2' };
    assert.equal(
      sampleValue(text, 'risk_scan_rpc_breaker_transitions_total', { ...breaker, state: 'open' }),
      1,
    );
    // Every outcome of a method seen, and every breaker state, is a series from the start.
    assert.equal(text.match(/^risk_scan_rpc_calls_total\{/gm)?.length, 2 * 7);
    assert.equal(text.match(/^risk_scan_rpc_breaker_transitions_total\{/gm)?.length, 2 * 3);
  });

  it('facilitators: every operation and outcome shown at 0 from the start, by host and position', async () => {
    const registry = new Registry();
    createFacilitatorMetrics(registry, ['https://f.example.com/x402?key=SECRET', 'https://g.example.com']);
    const text = await registry.metrics();
    assert.doesNotMatch(text, /SECRET/);
    assert.equal(text.match(/^risk_scan_facilitator_calls_total\{.*\} 0$/gm)?.length, 2 * 3 * 6);
    assert.match(
      text,
      /risk_scan_facilitator_calls_total\{operation="settle",host="g\.example\.com",position="2",outcome="timeout"\} 0/,
    );
  });
});
