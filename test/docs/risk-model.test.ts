/** docs/risk-model.md lists every flag every scanner can raise, exactly as the code defines it. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { documentWithTables } from '../../scripts/render-flag-docs.js';
import { SCAN_ENDPOINTS } from '../../src/catalog.js';
import { FLAG_CATALOGS } from '../../src/scans/registry.js';

/** The flag catalogs' source files: every *flags.ts under src/scans. */
function catalogFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return catalogFiles(path);
    return name.endsWith('flags.ts') ? [path] : [];
  });
}

/** Each `meaning:` string of a catalog's source, its `${…}` parts taken out: the prose typed by hand. */
function typedMeanings(): string[] {
  const meaning = /meaning:\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)/g;
  return catalogFiles('src/scans').flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(meaning)].map((m) => m[1]!.replace(/\$\{[^}]*\}/g, '')),
  );
}

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

  // A threshold typed into the prose drifts from the rule: each number comes from the constant the
  // rule reads (the scanners' thresholds.ts), and the test above keeps the document rendered from it.
  it("types no number into a flag's meaning: each comes from the constant its rule reads", () => {
    const definitions = new Set(Object.values(FLAG_CATALOGS).flatMap((catalog) => Object.values(catalog)));
    const meanings = typedMeanings();
    assert.equal(meanings.length, definitions.size, 'every flag definition read from the source');
    for (const prose of meanings) {
      // Digits inside a name (Token-2022, AMM v4, x402) are not numbers.
      const numbers = [...prose.matchAll(/(?<![\w.-])\d[\d,.]*/g)].map((m) => m[0]);
      assert.deepEqual(numbers, [], `typed numbers in: ${prose.slice(0, 90)}…`);
    }
  });
});
