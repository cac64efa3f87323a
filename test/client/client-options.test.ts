/**
 * Options a client cannot work with are refused when it is made, as a usage error naming the
 * option, not as a raw RangeError at its first call (or, for a budget that is no number, never).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import {
  RiskScanClient,
  type RiskScanClientOptions,
  RiskScanError,
} from '../../packages/client/src/index.js';

const PAY_TO = 'GvHeR432g7MjN9uKyX3Dzg66TqwrEWgANLnnFZXMeyyj';

async function options(): Promise<RiskScanClientOptions> {
  return {
    apiUrl: 'http://127.0.0.1:8402',
    rpcUrl: 'http://127.0.0.1:8899',
    signer: await generateKeyPairSigner(),
    payTo: PAY_TO,
  };
}

const BAD: readonly [string, Partial<Record<keyof RiskScanClientOptions, unknown>>][] = [
  ['apiUrl', { apiUrl: 'not a url' }],
  ['apiUrl', { apiUrl: 'ftp://risk-scan.example' }],
  ['rpcUrl', { rpcUrl: '' }],
  ['payTo', { payTo: 'nobody' }],
  ['budgetUsd', { budgetUsd: Number.NaN }],
  ['budgetUsd', { budgetUsd: -1 }],
  ['maxPerCallUsd', { maxPerCallUsd: Number.POSITIVE_INFINITY }],
  ['timeoutMs', { timeoutMs: 0 }],
  ['timeoutMs', { timeoutMs: 2.5 }],
  ['timeoutMs', { timeoutMs: 3_000_000_000 }],
];

describe('a client made with options it cannot use', () => {
  for (const [name, bad] of BAD) {
    it(`${name} = ${String(Object.values(bad)[0])}: invalid_option, a usage error, nothing paid`, async () => {
      const made = { ...(await options()), ...bad } as RiskScanClientOptions;
      assert.throws(
        () => new RiskScanClient(made),
        (e: unknown) => {
          assert.ok(e instanceof RiskScanError, `a RiskScanError, not ${String(e)}`);
          assert.equal(e.code, 'invalid_option');
          assert.equal(e.kind, 'usage');
          assert.equal(e.paid, false);
          assert.match(e.message, new RegExp(`\\b${name}\\b`));
          return true;
        },
      );
    });
  }

  it('the defaults and every good value make a client', async () => {
    assert.ok(new RiskScanClient(await options()));
    const client = new RiskScanClient({
      ...(await options()),
      budgetUsd: 0.5,
      maxPerCallUsd: 0,
      timeoutMs: 1,
    });
    assert.equal(client.remainingUsd, 0.5);
  });
});
