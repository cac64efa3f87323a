/** The subject kinds, spelled once: every GET scans one of them, and a watch follows the address kinds. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GET_ENDPOINTS, SCAN_ENDPOINTS, SUBJECT_KINDS, WATCH_KINDS } from '../../src/catalog.js';

describe('subject kinds', () => {
  it('each kind has exactly one GET endpoint, and each GET endpoint is a kind', () => {
    assert.deepEqual(GET_ENDPOINTS.map((e) => e.id).sort(), Object.keys(SUBJECT_KINDS).sort());
  });

  it('a watch follows the kinds whose GET takes an address, in the order POST /watch lists them', () => {
    const addressKinds = GET_ENDPOINTS.filter((e) => e.param.kind === 'address').map((e) => e.id);
    assert.deepEqual([...WATCH_KINDS].sort(), addressKinds.sort());
    assert.deepEqual(WATCH_KINDS, ['token', 'pumpfun', 'wallet', 'program']);
  });

  it('the scans are the GETs and /simulate/tx; the watch is produced apart', () => {
    assert.deepEqual(
      SCAN_ENDPOINTS.map((e) => e.id),
      ['pumpfun', 'token', 'wallet', 'tx', 'program', 'simulate'],
    );
  });
});
