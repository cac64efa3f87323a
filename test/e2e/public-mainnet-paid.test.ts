/**
 * Under the `public-mainnet` RPC profile (its published rate limits), 12 paid wallet scans sent
 * at once through the official x402 client all return 200. The rate limit falls on the API's
 * reads, which retry within their deadlines; the sandbox's facilitators settle through an RPC of
 * their own, as a real facilitator does, and the service's confirmation of a settlement retries
 * a rate-limited lookup within the payment's timeout before it would answer
 * `settlement_unconfirmed`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';

const CALLS = 12;

describe('12 concurrent paid wallet scans under the public-mainnet RPC profile', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'public-mainnet-'));
  let sandbox: RunningSandbox;
  let wallets: string[];
  let pay: typeof fetch;

  before(async () => {
    sandbox = await startCustomerSandbox(dir, 'public-mainnet');
    const subjects: ScenarioSubject[] = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')).subjects;
    const seeded = subjects
      .filter((s) => s.kind === 'wallet' && 'address' in s)
      .map((s) => (s as { address: string }).address);
    // Distinct subjects: no scan shares another's flight or cached result.
    const fresh = await Promise.all(
      Array.from({ length: Math.max(0, CALLS - seeded.length) }, () => generateKeyPairSigner()),
    );
    wallets = [...seeded, ...fresh.map((k) => k.address)].slice(0, CALLS);
    pay = await payingFetch(sandbox);
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('all return 200 with a settlement receipt', async () => {
    assert.equal(wallets.length, CALLS);
    const answers = await Promise.all(
      wallets.map(async (wallet) => {
        const res = await pay(`${sandbox.api.url}/scan/wallet/${wallet}`);
        const body = (await res.json()) as { error?: string };
        return {
          wallet,
          status: res.status,
          receipt: res.headers.get('payment-response'),
          error: body.error,
        };
      }),
    );
    const failed = answers.filter((a) => a.status !== 200 || a.receipt === null);
    assert.deepEqual(failed, [], `${failed.length} of ${CALLS} failed`);
  });
});
