/**
 * Loads the real mainnet account dumps kept in the repository's fixtures/mainnet (provenance in
 * its PROVENANCE.md), through the production dump parser.
 */
import { readFileSync } from 'node:fs';
import { type AccountDump, parseAccountDump } from '../../src/solana/decoders/account-dump.js';

export const FIXTURES = new URL('../../fixtures/', import.meta.url);
export const MAINNET_FIXTURES = new URL('mainnet/', FIXTURES);

export function readFixtureJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(new URL(relativePath, MAINNET_FIXTURES), 'utf8'));
}

export function loadAccount(fileName: string): AccountDump {
  return parseAccountDump(readFixtureJson(`accounts/${fileName}`));
}

/** Unwraps a decode result in a test, failing with the decoder's own reason. */
export function expectDecoded<T>(
  result: { ok: true; value: T } | { ok: false; reason: string; detail: string },
): T {
  if (!result.ok) throw new Error(`expected a decode, got ${result.reason}: ${result.detail}`);
  return result.value;
}
