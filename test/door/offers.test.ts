/** The offer book keeps standard offers by URL, and never serves one made for other terms. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bs58 from 'bs58';
import { PAID_ENDPOINTS } from '../../src/catalog.js';
import { OfferBook } from '../../src/door/offers.js';
import type { FacilitatorDirectory } from '../../src/x402/facilitators.js';
import { createOfferTemplate } from '../../src/x402/offer.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const FEE_PAYERS = [
  '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4',
  'BENGEso6uSrcCYyRsanYgmDwLi34QSpihU2FX2xvpN5M',
];

/** The directory's three members the book reads; `use` switches facilitator as a refresh would. */
function directory() {
  const state = { feePayer: FEE_PAYERS[0]!, version: 0 };
  const facilitators = {
    advertised: () => ({ feePayer: state.feePayer }),
    unavailableReason: () => '',
    get version() {
      return state.version;
    },
  } as unknown as FacilitatorDirectory;
  return {
    facilitators,
    use(feePayer: string) {
      state.feePayer = feePayer;
      state.version++;
    },
  };
}

const token = PAID_ENDPOINTS.find((e) => e.id === 'token')!;
/** A distinct token URL for each `i`. */
function url(i: number): string {
  const mint = Buffer.alloc(32, 7);
  mint.writeUInt32BE(i);
  return `http://localhost:8402/scan/token/${bs58.encode(mint)}`;
}

describe('OfferBook.unpaid', () => {
  it('gives the offer a fresh render would, kept with its body as bytes from the second request on', () => {
    const dir = directory();
    const book = new OfferBook({ payTo: PAY_TO, maxTimeoutSeconds: 60, facilitators: dir.facilitators });
    const fresh = createOfferTemplate(token, book.terms(token)).render(url(1));
    const first = book.unpaid(token, url(1));
    assert.equal(first.body, fresh.body);
    assert.equal(first.header, fresh.header);
    assert.equal(first.bodyBytes, fresh.bodyBytes);
    assert.equal(first.bytes, null, 'a URL asked for once is not encoded');
    const second = book.unpaid(token, url(1));
    assert.deepEqual(second.bytes, Buffer.from(fresh.body));
    assert.equal(second.body, fresh.body);
    assert.equal(second.header, fresh.header);
    assert.equal(book.unpaid(token, url(1)), second, 'the third request is answered with the kept offer');
    assert.equal(
      book.unpaid(token, url(2)).body,
      createOfferTemplate(token, book.terms(token)).render(url(2)).body,
    );
  });

  it('drops kept offers when the facilitator changes, so no offer names a stale fee payer', () => {
    const dir = directory();
    const book = new OfferBook({ payTo: PAY_TO, maxTimeoutSeconds: 60, facilitators: dir.facilitators });
    book.unpaid(token, url(1));
    book.unpaid(token, url(1));
    dir.use(FEE_PAYERS[1]!);
    const after = book.unpaid(token, url(1));
    assert.match(after.body, new RegExp(`"feePayer":"${FEE_PAYERS[1]}"`));
    assert.doesNotMatch(after.body, new RegExp(FEE_PAYERS[0]!));
    assert.equal(after.bytes, null, 'rendered anew');
  });

  it('stays right for URLs past its size: each is its own offer', () => {
    const dir = directory();
    const book = new OfferBook({ payTo: PAY_TO, maxTimeoutSeconds: 60, facilitators: dir.facilitators });
    for (let i = 0; i < 3000; i++) {
      const offer = book.unpaid(token, url(i));
      assert.ok(offer.body.includes(`"resource":"${url(i)}"`), `offer ${i} names its own URL`);
      assert.equal(offer.bytes, null, 'a URL asked for once is not kept');
    }
    assert.ok(book.unpaid(token, url(2999)).bytes !== null, 'the latest URLs are still kept');
  });
});
