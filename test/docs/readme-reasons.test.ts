/** The README's list of reasons is the reasons table's (scripts/render-reason-docs.ts). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readmeWithReasons, renderReasonList } from '../../scripts/render-reason-docs.js';
import { REASONS } from '../../src/reasons.js';

describe("README's list of reasons", () => {
  const readme = readFileSync('README.md', 'utf8');

  it('is up to date with src/reasons.ts (run `npm run docs` after changing a reason)', () => {
    assert.equal(readme, readmeWithReasons(readme));
  });

  it('lists every code once, and a changed message makes it stale', () => {
    const list = renderReasonList();
    for (const code of Object.keys(REASONS)) {
      assert.equal(list.split(`| \`${code}\``).length, 2, code);
    }
    const stale = readme.replace(
      'payment_in_use: this payment is already being processed',
      'payment_in_use: busy',
    );
    assert.notEqual(stale, readmeWithReasons(stale));
  });
});
