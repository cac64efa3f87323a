/**
 * The upstream metrics on a registry of their own: endpoints labelled by host and position only
 * (an API key in a URL's path or query never reaches the text), every label child shown at 0
 * before anything happened (so rates and alerts work from the first scrape), and an abandoned
 * RPC call counted but not timed (its duration is the caller's deadline, not the endpoint's).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createFacilitatorMetrics, createRpcMetrics } from '../../src/server/upstream-metrics.js';
import { RPC_CALL_OUTCOMES } from '../../src/solana/rpc-observer.js';
import { FACILITATOR_CALL_OUTCOMES } from '../../src/x402/facilitator-observer.js';
import { sampleSum, sampleValue } from '../helpers/prometheus.js';

const DOC = readFileSync(new URL('../../docs/upstream-metrics.md', import.meta.url), 'utf8');

/** The rows of each of the doc's tables whose header starts with `first`: their cells, trimmed. */
function docTables(first: string): string[][][] {
  const lines = DOC.split('\n');
  const tables: string[][][] = [];
  lines.forEach((line, at) => {
    if (!line.startsWith(`| ${first} |`)) return;
    const rows = [];
    for (const row of lines.slice(at + 2)) {
      if (!row.startsWith('|')) break;
      rows.push(
        row
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    }
    tables.push(rows);
  });
  return tables;
}

/** The backticked words of a cell (names, labels, values). */
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

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

  it('shows the requests waiting under a rate limit and their waits, by endpoint and priority', async () => {
    const registry = new Registry();
    const observer = createRpcMetrics(registry, ['https://a.example/?api-key=k', 'https://b.example']);
    let text = await registry.metrics();
    for (const priority of ['paid', 'watch'])
      assert.match(
        text,
        new RegExp(
          `risk_scan_rpc_queued_requests\\{host="b\\.example",position="2",priority="${priority}"\\} 0`,
        ),
      );
    observer.queued?.(0, 'watch', 3);
    observer.queued?.(0, 'paid', 1);
    observer.waited?.(0, 'paid', 0.2);
    observer.waited?.(0, 'paid', 0);
    observer.queued?.(0, 'paid', 0);
    text = await registry.metrics();
    const a = { host: 'a.example', position: '1' };
    assert.equal(sampleValue(text, 'risk_scan_rpc_queued_requests', { ...a, priority: 'watch' }), 3);
    assert.equal(sampleValue(text, 'risk_scan_rpc_queued_requests', { ...a, priority: 'paid' }), 0);
    assert.equal(sampleValue(text, 'risk_scan_rpc_queue_wait_seconds_count', { ...a, priority: 'paid' }), 2);
    assert.equal(sampleValue(text, 'risk_scan_rpc_queue_wait_seconds_sum', { ...a, priority: 'paid' }), 0.2);
    assert.equal(sampleSum(text, 'risk_scan_rpc_queue_wait_seconds_count', { priority: 'watch' }), 0);
    assert.doesNotMatch(text, /api-key/);
  });

  it('docs/upstream-metrics.md lists every metric with its type and labels, and every outcome', async () => {
    const registry = new Registry();
    createRpcMetrics(registry, ['https://rpc.example.com']).call(0, 'getSlot', 'ok', 0.01);
    createFacilitatorMetrics(registry, ['https://f.example.com']);
    const exposed = new Map<string, { type: string; labels: Set<string> }>();
    for (const metric of await registry.getMetricsAsJSON()) {
      const labels = new Set(metric.values.flatMap((v) => Object.keys(v.labels)).filter((l) => l !== 'le'));
      exposed.set(metric.name, { type: String(metric.type), labels });
    }
    const documented = new Map<string, { type: string; labels: Set<string> }>(
      docTables('Metric')[0]!.map(([name, type, labels]) => [
        codes(name!)[0]!,
        { type: type!, labels: new Set(codes(labels!)) },
      ]),
    );
    assert.deepEqual([...documented.keys()].sort(), [...exposed.keys()].sort());
    for (const [name, { type, labels }] of exposed) {
      assert.equal(documented.get(name)?.type, type, name);
      for (const label of labels)
        assert.ok(documented.get(name)?.labels.has(label), `${name}: label ${label}`);
    }
    assert.deepEqual(
      docTables('outcome').map((rows) => rows.map(([cell]) => codes(cell!)[0])),
      [RPC_CALL_OUTCOMES, FACILITATOR_CALL_OUTCOMES],
      'the RPC outcomes, then the facilitator outcomes, in the order of the code',
    );
  });
});
