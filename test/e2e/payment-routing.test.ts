/**
 * A payment is settled by the facilitator whose fee payer it names, the 402 fails over to a
 * healthy facilitator, and a result served from the cache says so (spec §8).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v1Payment, v2Payment } from '../helpers/payments.js';
import { probeScanner, probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { jsonOf } from '../helpers/service.js';

describe('routing, fail-over and cached results', () => {
  let sandbox: PaidSandbox;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('fails the 402 over to the second facilitator when the first stops answering, and settles there', async () => {
    const [first, second] = sandbox.facilitators;
    const url = `${sandbox.url}/scan/program/${sandbox.payTo}`;
    assert.equal((await offerOf(url)).v2.extra?.feePayer, first!.feePayer);

    await first!.close();
    await sandbox.service.facilitators.refresh();
    const offer = await offerOf(url);
    assert.equal(offer.v2.extra?.feePayer, second!.feePayer, 'the offer now names the healthy facilitator');

    const res = await pay(
      url,
      encodeHeader(await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl)),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString());
    const settlement = sandbox.chain.transaction(receipt.transaction);
    assert.ok(settlement, 'settled on chain');
    assert.equal(settlement.accountKeys[0], second!.feePayer, 'the second facilitator paid the fee');
  });

  it('a second paid call on the same subject is served from the cache, marked cached with when it was produced', async () => {
    const url = `${sandbox.url}/scan/token/${sandbox.payTo}`;
    const payOnce = async () => {
      const offer = await offerOf(url);
      return jsonOf(
        await pay(
          url,
          encodeHeader(await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl)),
        ),
      );
    };
    const before = await sandbox.usdcBalance(sandbox.payTo);
    const fresh = await payOnce();
    const cached = await payOnce();
    assert.equal(fresh.cached, false);
    assert.equal(fresh.cached_at, undefined);
    assert.equal(cached.cached, true);
    assert.ok(!Number.isNaN(Date.parse(cached.cached_at)), 'cached_at is an ISO date-time');
    assert.notEqual(cached.request_id, fresh.request_id, 'each paid call has its own request id');
    assert.equal(cached.risk_score, fresh.risk_score);
    assert.equal(await sandbox.usdcBalance(sandbox.payTo), before + 600_000n, 'each call was paid once');
  });
});

describe('an endpoint without a scanner in this build', () => {
  it('refuses payment with 402 before anything is claimed or settled', async () => {
    const sandbox = await startPaidSandbox({}, { mode: selling({ wallet: probeScanner }) });
    try {
      const url = `${sandbox.url}/scan/token/${sandbox.payTo}`;
      const offer = await offerOf(url);
      const before = await sandbox.usdcBalance(sandbox.payer.address);
      const res = await pay(
        url,
        encodeHeader(await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl)),
      );
      const body = await jsonOf(res);
      assert.equal(res.status, 402);
      assert.equal(refusalCode(body), 'endpoint_unavailable');
      assert.equal(await sandbox.usdcBalance(sandbox.payer.address), before);
    } finally {
      await sandbox.close();
    }
  });
});

describe('behind a proxy (PUBLIC_BASE_URL)', () => {
  it('tells the facilitator the resource URL the 402 offered, for v1 and v2 payments alike', async () => {
    const publicBase = 'https://scan.example.com';
    const sent: { path: string; body: Record<string, any> }[] = [];
    const recording = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
      if (path === '/verify' || path === '/settle') sent.push({ path, body: JSON.parse(String(init?.body)) });
      return fetch(input, init);
    }) as typeof fetch;
    const sandbox = await startPaidSandbox(
      { PUBLIC_BASE_URL: publicBase },
      { mode: selling(probeScanners()), facilitatorFetch: recording },
    );
    try {
      const path = `/scan/wallet/${sandbox.payTo}`;
      const offer = await offerOf(sandbox.url + path);
      assert.equal(offer.resourceUrl, publicBase + path, 'the offer names the public URL');
      assert.equal(offer.v1.resource, publicBase + path);

      const v2 = encodeHeader(
        await v2Payment(sandbox.payer, sandbox.rpcServer.url, offer.v2, offer.resourceUrl),
      );
      assert.equal((await pay(sandbox.url + path, v2)).status, 200);
      const v1 = encodeHeader(
        await v1Payment(sandbox.payer, sandbox.rpcServer.url, offer.v1, 'solana-mainnet'),
      );
      assert.equal((await pay(sandbox.url + path, v1, 'X-PAYMENT')).status, 200);

      assert.deepEqual(
        sent.map((call) => call.path),
        ['/verify', '/settle', '/verify', '/settle'],
      );
      for (const { path: call, body } of sent) {
        const named = [body.paymentRequirements?.resource, body.paymentPayload?.resource?.url].filter(
          (r) => r !== undefined,
        );
        assert.ok(named.length > 0, `${call} names a resource`);
        for (const resource of named) assert.equal(resource, publicBase + path, `${call} resource`);
      }
    } finally {
      await sandbox.close();
    }
  });
});
