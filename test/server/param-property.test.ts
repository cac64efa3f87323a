/** Property: whatever a caller puts in the path parameter, the answer is 400 or 402, never 500. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import bs58 from 'bs58';
import fc from 'fast-check';
import { GET_ENDPOINTS } from '../../src/catalog.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

describe('path parameters, any input', () => {
  let stub: FacilitatorStub;
  let svc: TestService;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService({ FACILITATOR_URLS: stub.url });
  });
  after(async () => {
    await svc.close();
    await stub.close();
  });

  const inputs = fc.oneof(
    fc.string({ maxLength: 100 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{1,100}$/),
    fc.uint8Array({ minLength: 0, maxLength: 70 }).map((b) => bs58.encode(b)),
    fc.constantFrom('..', '%00', '%2F', '\\', '?', '#', ' '),
  );
  const endpoints = fc.constantFrom(...GET_ENDPOINTS);

  it('is answered 400 or 402 (in process, many cases)', async () => {
    await fc.assert(
      fc.asyncProperty(endpoints, inputs, async (endpoint, value) => {
        const path = endpoint.path.replace(`{${endpoint.param.name}}`, encodeURIComponent(value));
        const res = await svc.service.app.request(`http://localhost${path}`);
        const status = res.status;
        // "." and ".." are dot-segments: URL resolution removes them, leaving an empty parameter
        // ("/scan/token/" → 400) or a path that is no paid route at all ("/scan/" → 404).
        if (value === '.' || value === '..') return assert.ok(status === 400 || status === 404);
        assert.ok(status === 400 || status === 402, `${path} → ${status}`);
        const body = JSON.parse(await res.text());
        if (status === 400) assert.equal(body.error, 'invalid_input');
        if (status === 402) assert.equal(body.x402Version, 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes to exactly the right byte length when and only when it is accepted', async () => {
    await fc.assert(
      fc.asyncProperty(endpoints, fc.uint8Array({ minLength: 0, maxLength: 70 }), async (endpoint, bytes) => {
        const value = bs58.encode(bytes);
        const res = await svc.service.app.request(
          `http://localhost${endpoint.path.replace(/\{\w+\}/, value)}`,
        );
        const want = endpoint.param.kind === 'signature' ? 64 : 32;
        const accepted = res.status === 402;
        assert.equal(
          accepted,
          bytes.length === want && value.length > 0,
          `${bytes.length} bytes → ${res.status}`,
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('over real HTTP, a sample of raw inputs never gets a 500', async () => {
    const samples = fc.sample(fc.tuple(endpoints, inputs), { numRuns: 150, seed: 7 });
    for (const [endpoint, value] of samples) {
      const path = endpoint.path.replace(`{${endpoint.param.name}}`, encodeURIComponent(value));
      const res = await fetch(svc.url + path);
      const dotSegment = value === '.' || value === '..';
      assert.ok(
        res.status === 400 || res.status === 402 || (dotSegment && res.status === 404),
        `${path} → ${res.status}`,
      );
      await res.arrayBuffer();
    }
  });
});
