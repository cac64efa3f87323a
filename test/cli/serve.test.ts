/** `npm start` on mainnet: it listens once the facilitators were asked, so no 402 comes too early. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serve } from '../../src/cli/serve.js';
import { parseConfig } from '../../src/config.js';
import { startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { jsonOf, TEST_FEE_PAYER, TEST_PAY_TO } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** `timeoutMs` ends the probe of a facilitator that never answers; one that answers gets all the time it takes. */
function mainnetConfig(facilitatorUrl: string, timeoutMs = 60_000) {
  return parseConfig({
    RISK_SCAN_MODE: 'mainnet',
    PAY_TO: TEST_PAY_TO,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FACILITATOR_URLS: facilitatorUrl,
    FACILITATOR_TIMEOUT_MS: String(timeoutMs),
    VERIFIED_TOKENS_URL: 'none',
    STATE_DIR: join(tmpdir(), `serve-test-${randomUUID()}`),
  });
}

describe('serve (mainnet)', () => {
  it('the first 402 already names the fee payer of a facilitator that answers late', async () => {
    const stub = await startFacilitatorStub(TEST_FEE_PAYER, 'late');
    const running = await serve(mainnetConfig(stub.url), { healthChecks: {} });
    try {
      const body = await jsonOf(await fetch(`${running.url}/scan/token/${USDC}`));
      assert.equal(body.accepts[0].extra?.feePayer, TEST_FEE_PAYER);
    } finally {
      await running.close();
      await stub.close();
    }
  });

  it('a facilitator that does not answer delays the start by its timeout at most; the 402 says why', async () => {
    const stub = await startFacilitatorStub(TEST_FEE_PAYER, 'slow');
    // A start that waited for the silent facilitator would never listen: the test would hang.
    const running = await serve(mainnetConfig(stub.url, 1_000), { healthChecks: {} });
    try {
      const body = await jsonOf(await fetch(`${running.url}/scan/token/${USDC}`));
      assert.match(body.error, /Payment cannot be taken right now/);
    } finally {
      await running.close();
      await stub.close();
    }
  });
});
