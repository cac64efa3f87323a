/** docs/risk-model.md lists every flag every scanner can raise, exactly as the code defines it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { documentWithTables } from '../../scripts/render-flag-docs.js';
import { SCAN_ENDPOINTS } from '../../src/catalog.js';
import { FLAG_CATALOGS } from '../../src/scans/registry.js';

describe('docs/risk-model.md', () => {
  const doc = readFileSync('docs/risk-model.md', 'utf8');

  it('is up to date with the flag catalogs (run `npm run docs` after changing a flag)', () => {
    assert.equal(doc, documentWithTables(doc));
  });

  it('documents every flag with its severity and evidence keys', () => {
    for (const endpoint of SCAN_ENDPOINTS) {
      const section = doc.split(`### ${endpoint.path}\n`)[1]?.split('\n### ')[0] ?? '';
      for (const [code, flag] of Object.entries(FLAG_CATALOGS[endpoint.id])) {
        const row = section.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
        assert.ok(row, `${code} documented`);
        assert.ok(row.includes(`| ${flag.severity} |`), `${code} severity`);
        for (const key of flag.evidenceKeys)
          assert.ok(row.includes(`\`${key}\``), `${code} evidence key ${key}`);
      }
    }
  });
});
