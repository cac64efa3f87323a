/**
 * Renders the README's list of reasons (every 402, and every 400/500/503 of a paid call) from
 * the reasons table, src/reasons.ts, so the README cannot drift from what the service says.
 * `npm run docs` writes it; test/docs/readme-reasons.test.ts checks it is current.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { REASONS, type ReasonCode } from '../src/reasons.js';

const DOC = 'README.md';
const START = '<!-- reasons:start -->';
const END = '<!-- reasons:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The message as a caller reads it, each `{name}` shown as the value it stands for. */
const shown = (message: string) => cell(message).replace(/\{(\w+)\}/g, '*‹$1›*');

/** Where a status's reason is read, in the body a caller gets. */
const FIELD: Readonly<Record<number, string>> = {
  402: '`error` of the PaymentRequired body',
  400: '`message` (`error` is `invalid_input`)',
  500: '`message` (`error` as given)',
  503: '`reason` is the code; `message`; with `Retry-After`',
};

export function renderReasonList(): string {
  const codes = Object.keys(REASONS) as ReasonCode[];
  const sections = [402, 400, 500, 503].map((status) => {
    const rows = codes
      .filter((code) => REASONS[code].status === status)
      .map((code) => {
        const entry = REASONS[code];
        const error = entry.status === 402 ? '' : ` (\`${entry.error}\`)`;
        return `| \`${code}\`${error} | ${shown(entry.message)} |`;
      });
    return [`**${status}**: ${FIELD[status]}`, '', '| code | message |', '|---|---|', ...rows, ''].join('\n');
  });
  return [
    START,
    'Generated from `src/reasons.ts` by `npm run docs`. Each message is sent exactly as written',
    'here, *‹name›* standing for a value given per call; where it starts with a word such as',
    '`payment_used:`, that word is for clients to read. A 503 names its code in `reason`.',
    '',
    ...sections,
    END,
  ].join('\n');
}

export function readmeWithReasons(current: string): string {
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  if (from === -1 || to === -1) throw new Error(`${DOC} lacks the ${START} … ${END} markers`);
  return current.slice(0, from) + renderReasonList() + current.slice(to + END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(DOC, readmeWithReasons(readFileSync(DOC, 'utf8')));
  console.log(`${DOC} updated`);
}
