/**
 * Renders the flag tables of docs/risk-model.md from the scanners' flag catalogs, so the
 * document cannot drift from the code. `npm run docs` writes it; a test checks it is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SCAN_ENDPOINTS } from '../src/catalog.js';
import { FLAG_CATALOGS } from '../src/scans/registry.js';
import { SEVERITY_WEIGHT } from '../src/scans/risk/model.js';

const DOC = 'docs/risk-model.md';
const START = '<!-- flags:start -->';
const END = '<!-- flags:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderFlagTables(): string {
  const sections = SCAN_ENDPOINTS.map((endpoint) => {
    const catalog = FLAG_CATALOGS[endpoint.id];
    const rows = Object.entries(catalog).map(([code, f]) => {
      const notes = [
        f.floor ? 'floor 0.85' : '',
        f.confidencePenalty ? `confidence −${f.confidencePenalty}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `| \`${code}\` | ${f.severity} | ${SEVERITY_WEIGHT[f.severity]} | ${cell(f.meaning)} | ${f.evidenceKeys.map((k) => `\`${k}\``).join(', ') || '—'} | ${notes || '—'} |`;
    });
    return [
      `### ${endpoint.path}`,
      '',
      '| code | severity | weight | meaning | evidence keys | also |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n');
  });
  return [
    START,
    '## Flag catalog',
    '',
    "Generated from the scanners' `flags.ts` by `npm run docs`.",
    '',
    ...sections,
    END,
  ].join('\n');
}

export function documentWithTables(current: string): string {
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${DOC} lacks the ${START} … ${END} markers`);
  return current.slice(0, start) + renderFlagTables() + current.slice(end + END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(DOC, documentWithTables(readFileSync(DOC, 'utf8')));
  console.log(`${DOC} updated`);
}
