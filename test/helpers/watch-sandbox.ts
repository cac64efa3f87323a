/**
 * A paid sandbox whose service keeps its watches in an embedded state the test can read and
 * write, signing with a key kept in a temporary directory; and POST /watch as a test sends it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { openLmdbWatchState } from '../../src/state/watches/lmdb.js';
import type { WatchState } from '../../src/watch/model.js';
import { type PaidSandbox, startPaidSandbox } from './paid-sandbox.js';
import { encodeHeader, v2Payment } from './payments.js';

/** Nothing listens here: a watch that never sees a change never sends to it. */
export const UNHEARD_WEBHOOK = 'http://127.0.0.1:9/hook';

export interface WatchSandbox {
  readonly sandbox: PaidSandbox;
  readonly state: WatchState;
  close(): Promise<void>;
}

/** `env`: more of the service's configuration (e.g. a longer FACILITATOR_TIMEOUT_MS). */
export async function startWatchSandbox(
  caps: {
    maxWatches: number;
    maxWatchesPerSubject: number;
  },
  env: Record<string, string> = {},
): Promise<WatchSandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'watch-sandbox-'));
  const pem = generateKeyPem();
  await writeFile(join(dir, 'signing.pem'), pem);
  const state = await openLmdbWatchState(join(dir, 'watches'), {
    mode: 'sandbox',
    signingKey: signingKeyFromPem(pem),
    ...caps,
  });
  const sandbox = await startPaidSandbox(
    { SIGNING_KEY_FILE: join(dir, 'signing.pem'), ...env },
    { mode: selling(SCANNERS, { watches: { state } }) },
  );
  return {
    sandbox,
    state,
    close: async () => {
      await sandbox.close();
      await state.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const postWatch = (
  base: string,
  body: unknown,
  init: { fetch?: typeof fetch; headers?: Record<string, string> } = {},
) =>
  (init.fetch ?? fetch)(`${base}/watch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify(body),
  });

/** A v2 payment for the offer `body` gets, built as @x402/fetch builds it, to present more than once. */
export async function watchPaymentFor(
  sandbox: PaidSandbox,
  base: string,
  body: unknown,
): Promise<Record<string, string>> {
  const offer = await postWatch(base, body);
  assert.equal(offer.status, 402, await offer.clone().text());
  const required = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
  const payment = await v2Payment(
    sandbox.payer,
    sandbox.rpcServer.url,
    required.accepts[0]!,
    required.resource.url,
  );
  return { 'PAYMENT-SIGNATURE': encodeHeader(payment) };
}
