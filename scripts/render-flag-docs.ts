/**
 * Renders the flag tables and the decision table of docs/risk-model.md from the code (the
 * scanners' flag catalogs, src/contract/decision.ts), so the document cannot drift from it.
 * `npm run docs` writes it; a test checks it is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SCAN_ENDPOINTS } from '../src/catalog.js';
import { DECISION_TABLE } from '../src/contract/decision.js';
import { FLAG_CATALOGS } from '../src/scans/registry.js';
import { SEVERITY_WEIGHT } from '../src/scans/risk/model.js';

const DOC = 'docs/risk-model.md';
const START = '<!-- flags:start -->';
const END = '<!-- flags:end -->';
const DECISIONS_START = '<!-- decisions:start -->';
const DECISIONS_END = '<!-- decisions:end -->';

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

/** The buckets, as `evidence.decision` names them and /openapi.json publishes them. */
export function renderDecisionTable(): string {
  const rows = DECISION_TABLE.map((b, i) => {
    const next = DECISION_TABLE[i + 1];
    const range =
      i === 0
        ? `< ${next!.min_score.toFixed(2)}`
        : next
          ? `${b.min_score.toFixed(2)} – ${next.min_score.toFixed(2)}`
          : `≥ ${b.min_score.toFixed(2)}`;
    return `| ${range} | \`${b.decision}\` | ${b.level}: ${b.advice} |`;
  });
  return [
    DECISIONS_START,
    '| risk_score | decision | what the recommendation says |',
    '|---|---|---|',
    ...rows,
    DECISIONS_END,
  ].join('\n');
}

function replaceBetween(current: string, start: string, end: string, text: string): string {
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`${DOC} lacks the ${start} … ${end} markers`);
  return current.slice(0, from) + text + current.slice(to + end.length);
}

export function documentWithTables(current: string): string {
  const withFlags = replaceBetween(current, START, END, renderFlagTables());
  return replaceBetween(withFlags, DECISIONS_START, DECISIONS_END, renderDecisionTable());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(DOC, documentWithTables(readFileSync(DOC, 'utf8')));
  console.log(`${DOC} updated`);
}
