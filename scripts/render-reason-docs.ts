/**
 * Renders the README's list of reasons (every 402, and every error the service answers) from
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

/** What a status's body says besides `reason`, and where its message is. */
const FIELD: Readonly<Record<number, string>> = {
  402: "the PaymentRequired body (and the v2 `PAYMENT-REQUIRED` header's object): the message is its `error`",
  400: 'before any payment: the message is `message`, `error` as given (`invalid_input`: the input; `bad_request`: the request itself)',
  404: '`error` is `not_found`',
  405: '`error` is `method_not_allowed`, with `Allow`',
  408: '`error` is `request_timeout`',
  414: '`error` is `uri_too_long`',
  431: '`error` is `headers_too_large`',
  500: '`error` as given',
  503: '`error` is `service_unavailable`, with `Retry-After`',
};

const STATUSES = [402, 400, 404, 405, 408, 414, 431, 500, 503] as const;

export function renderReasonList(): string {
  const codes = Object.keys(REASONS) as ReasonCode[];
  const sections = STATUSES.map((status) => {
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
    '`payment_used:`, that word is for clients to read. Every body names its code in `reason`:',
    'compare that, not the words.',
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
