/**
 * The code of a reason as a caller reads it (a 402's `error`, an error body's `message`), found
 * in the reasons table (src/reasons.ts) by its message template: tests compare codes, not words.
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

/** The code of a 402 body's `error` (the v1 PaymentRequired body). */
export const refusalCode = (body: { readonly error?: unknown }): ReasonCode => reasonCode(body.error);
