/** The 402 offer template: a resource URL spliced into a pre-serialised offer gives the same offer as serialising it whole. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PAID_ENDPOINTS, type PaidEndpoint } from '../../src/catalog.js';
import { serviceMetadata } from '../../src/x402/bazaar.js';
import {
  createOfferTemplate,
  type OfferTerms,
  offerExtensions,
  v1Requirement,
  v2Requirement,
} from '../../src/x402/offer.js';

const TERMS: OfferTerms = {
  payTo: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  feePayer: '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4',
  maxTimeoutSeconds: 60,
  // Not the table's words: the template must carry any text as it is given.
  why: { code: 'payment_required', text: 'Payment required: "quoted" \\ and ünïcode' },
};

/** The v1 body serialised whole, as the template must render it. */
function wholeV1(endpoint: PaidEndpoint, url: string): string {
  return JSON.stringify({
    x402Version: 1,
    error: TERMS.why.text,
    reason: TERMS.why.code,
    accepts: [v1Requirement(endpoint, TERMS, url)],
  });
}

describe('offer template', () => {
  it('renders, for any URL, the v1 body, its byte length and the v2 header that serialising the whole offer gives', () => {
    const urls = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      // Around the 1 KiB beyond which a URL no longer fits the renderer's reused buffer.
      fc.string({ minLength: 1015, maxLength: 1030 }),
      fc.string({ unit: 'binary', minLength: 250, maxLength: 400 }),
      fc.constantFrom('', 'h', 'ht', 'htt', 'https://scan.example.com/scan/token/x'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...PAID_ENDPOINTS), urls, (endpoint, url) => {
        const offer = createOfferTemplate(endpoint, TERMS).render(url);
        const whole = wholeV1(endpoint, url);
        assert.equal(offer.body, whole);
        assert.equal(offer.bodyBytes, Buffer.byteLength(whole), 'the Content-Length');
        assert.match(offer.header, /^[A-Za-z0-9+/]+={0,2}$/, 'one valid base64 text');
        assert.deepEqual(JSON.parse(Buffer.from(offer.header, 'base64').toString('utf8')), {
          x402Version: 2,
          error: TERMS.why.text,
          reason: TERMS.why.code,
          resource: {
            url,
            description: endpoint.summary,
            mimeType: 'application/json',
            ...serviceMetadata(null),
          },
          accepts: [JSON.parse(JSON.stringify(v2Requirement(endpoint, TERMS)))],
          extensions: JSON.parse(JSON.stringify(offerExtensions(endpoint))),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('the body is exactly the JSON of the offer, with no padding; the header pads only between tokens', () => {
    const endpoint = PAID_ENDPOINTS[1]!;
    const url = 'http://127.0.0.1:8402/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const offer = createOfferTemplate(endpoint, TERMS).render(url);
    const whole = wholeV1(endpoint, url);
    assert.equal(offer.body, whole);
    const header = Buffer.from(offer.header, 'base64').toString('utf8');
    const v2 = JSON.stringify(JSON.parse(header));
    // The same text but for at most two spaces after each of the two spliced-in boundaries.
    assert.equal(header.replaceAll(' ', ''), v2.replaceAll(' ', ''));
    assert.ok(header.length - v2.length <= 4, `${header.length - v2.length} spaces of padding`);
  });
});
