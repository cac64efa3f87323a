/** With no usable facilitator, unpaid calls still get the contract's 402, and /health says why. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PaymentRequiredSchema } from '../../src/contract/schemas.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { refusalCode } from '../helpers/reason-code.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

describe('no facilitator reachable', () => {
  let stub: FacilitatorStub;
  let svc: TestService;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER, 'http-500');
    // The second facilitator is a closed port: connection refused.
    svc = await startTestService({ FACILITATOR_URLS: `${stub.url},http://127.0.0.1:9` });
  });
  after(async () => {
    await svc.close();
    await stub.close();
  });

  it('still answers unpaid calls 402 with the contract body, and the error says why', async () => {
    const res = await fetch(`${svc.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
    assert.equal(res.status, 402);
    const body = await jsonOf(res);
    PaymentRequiredSchema.parse(body);
    assert.equal(body.accepts[0].network, 'solana-mainnet');
    assert.equal(body.accepts[0].maxAmountRequired, '300000');
    assert.equal(body.accepts[0].extra, undefined, 'no fee payer is invented');
    assert.equal(refusalCode(body), 'payment_unavailable');
    assert.ok(body.error.includes('HTTP 500'));
    assert.ok(body.error.includes('unreachable'));
  });

  it('/health reports degraded with the payments check down', async () => {
    const health = await jsonOf(await fetch(`${svc.url}/health`));
    assert.equal(health.status, 'degraded');
    assert.equal(health.checks.payments.status, 'down');
    assert.equal(health.checks.payments.advertised, null);
  });

  it('recovers once a facilitator answers, and the 402 names its fee payer again', async () => {
    stub.behaviour = 'ok';
    await svc.service.facilitators.refresh();
    const body = await jsonOf(
      await fetch(`${svc.url}/scan/wallet/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`),
    );
    assert.equal(body.accepts[0].extra.feePayer, TEST_FEE_PAYER);
    const health = await jsonOf(await fetch(`${svc.url}/health`));
    assert.equal(health.status, 'ok');
  });
});
