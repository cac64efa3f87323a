/**
 * Loads the real mainnet account dumps from ../shared/fixtures/mainnet (shared/ sits beside the
 * repository locally and in CI), through the production dump parser.
 */
import { readFileSync } from 'node:fs';
import { type AccountDump, parseAccountDump } from '../../src/solana/decoders/account-dump.js';

export const SHARED = new URL('../../../shared/', import.meta.url);
export const MAINNET_FIXTURES = new URL('fixtures/mainnet/', SHARED);

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
