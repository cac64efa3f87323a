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
import { createKeyPairSignerFromBytes, generateKeyPairSigner } from '@solana/kit';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { parseConfig } from '../../src/config.js';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/start.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createLogger } from '../../src/server/logger.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const CALLS = 12;

describe('12 concurrent paid wallet scans under the public-mainnet RPC profile', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'public-mainnet-'));
  let sandbox: RunningSandbox;
  let wallets: string[];
  let pay: typeof fetch;

  before(async () => {
    const config = parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX_RPC_PORT: '0',
      SANDBOX_FACILITATOR_PORT: '0',
      SANDBOX_DIR: dir,
      SANDBOX_RPC_PROFILE: 'public-mainnet',
      // The sandbox chain runs on the API's event loop: a busy test machine is no overload.
      SHED_EVENT_LOOP_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    });
    sandbox = await startSandbox({
      config,
      log: createLogger('silent'),
      serviceOptions: { scanners: SCANNERS },
    });
    const subjects: ScenarioSubject[] = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')).subjects;
    const seeded = subjects
      .filter((s) => s.kind === 'wallet' && 'address' in s)
      .map((s) => (s as { address: string }).address);
    // Distinct subjects: no scan shares another's flight or cached result.
    const fresh = await Promise.all(
      Array.from({ length: Math.max(0, CALLS - seeded.length) }, () => generateKeyPairSigner()),
    );
    wallets = [...seeded, ...fresh.map((k) => k.address)].slice(0, CALLS);
    const payer = await createKeyPairSignerFromBytes(
      new Uint8Array(JSON.parse(readFileSync(sandbox.files.payer, 'utf8'))),
    );
    pay = wrapFetchWithPayment(
      fetch,
      new x402Client().register(CAIP2, new ExactSvmScheme(payer, { rpcUrl: sandbox.rpc.url })),
    );
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
