/**
 * The code of a reason as a caller reads it: the body's `reason`, checked against the words it
 * gives (a 402's `error`, an error body's `message`), or found from the words alone by the
 * message templates of the reasons table (src/reasons.ts). Tests compare codes, not words.
 */
import assert from 'node:assert/strict';
import { REASONS, type ReasonCode } from '../../src/reasons.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each template as a whole-text pattern, a `{name}` matching any text. */
const PATTERNS = (Object.keys(REASONS) as ReasonCode[]).map((code) => {
  const parts = REASONS[code].message.split(/\{\w+\}/);
  const literal = parts.join('').length;
  return { code, literal, pattern: new RegExp(`^${parts.map(escapeRegExp).join('[\\s\\S]*')}$`) };
});

/**
 * The code whose template gives `text`; of two that both could (one template's value may hold
 * another's words), the one with more fixed words. Fails when no template gives it.
 */
export function reasonCode(text: unknown): ReasonCode {
  assert.equal(typeof text, 'string', `a reason is a text: ${JSON.stringify(text)}`);
  const matches = PATTERNS.filter((p) => p.pattern.test(text as string));
  assert.ok(matches.length > 0, `no reason in src/reasons.ts gives: ${text}`);
  return matches.reduce((best, p) => (p.literal > best.literal ? p : best)).code;
}

/**
 * The code a body names in `reason`, checked: a code of the table, of `status`'s, whose template
 * gives the body's words (`words`: a 402's `error`, an error body's `message`).
 */
function namedCode(status: number, reasonField: unknown, words: unknown): ReasonCode {
  assert.equal(typeof reasonField, 'string', `the body names no reason: ${JSON.stringify(reasonField)}`);
  const code = reasonField as ReasonCode;
  assert.ok(Object.hasOwn(REASONS, code), `${code} is not a code of src/reasons.ts`);
  assert.equal(REASONS[code].status, status, `${code} is not a ${status} reason`);
  assert.ok(
    PATTERNS.find((p) => p.code === code)!.pattern.test(String(words)),
    `${code} does not say: ${words}`,
  );
  return code;
}

/** The code of a 402 body (the v1 PaymentRequired body, or the v2 header's object): its `reason`. */
export const refusalCode = (body: { readonly error?: unknown; readonly reason?: unknown }): ReasonCode =>
  namedCode(402, body.reason, body.error);

/** The code of an error body (`error`, `reason`, `message`) answered with `status`: its `reason`. */
export function errorCode(
  status: number,
  body: { readonly error?: unknown; readonly reason?: unknown; readonly message?: unknown },
): ReasonCode {
  const code = namedCode(status, body.reason, body.message);
  const entry = REASONS[code];
  assert.equal('error' in entry ? entry.error : undefined, body.error, `${code}: its error`);
  return code;
}
