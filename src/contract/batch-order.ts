/**
 * The body of POST /scan/batch, checked before any payment: a kind a batch scans, 1 to 25
 * subjects, each a base58 address. A refusal names every item at fault (`subjects[3]: …`), so a
 * payer fixes the whole list at once. A repeated subject is one item: scanned and charged once.
 *
 * What a payment buys is named by the sha256 of the order written canonically (the subjects in
 * the order sent, repeats kept: the answer is aligned to them).
 */
import { createHash } from 'node:crypto';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import { type BatchOrder, MAX_BATCH_SUBJECTS } from '../terms/bodies.js';
import type { PostEndpoint } from '../terms/entry.js';
import { BATCH_KINDS, type BatchKind } from '../terms/subjects.js';
import { type BodyRefusal, parseJsonBody, refuseBody } from './body-schema.js';
import { paramReason } from './schemas.js';

export type { BatchOrder };

export type BatchCheck =
  | {
      readonly ok: true;
      readonly order: BatchOrder;
      /** The subjects without repeats, in the order first sent: what is scanned and charged. */
      readonly distinct: readonly string[];
      /** The order as canonical JSON: the paid call's subject. */
      readonly canonical: string;
      readonly sha256: string;
    }
  | BodyRefusal;

/** The order as one JSON text, keys in a fixed order. */
export const canonicalBatch = (order: BatchOrder): string =>
  JSON.stringify({ kind: order.kind, subjects: order.subjects });

/** The order a paid call's subject carries (its canonical JSON, already checked at admission). */
export const batchOfSubject = (subject: string): BatchOrder => JSON.parse(subject) as BatchOrder;

const isBatchKind = (kind: unknown): kind is BatchKind => BATCH_KINDS.includes(kind as BatchKind);

/** What is wrong with one subject, in words naming its place; null when it is an address. */
function subjectProblem(subject: unknown, index: number): string | null {
  const at = `subjects[${index}]`;
  if (typeof subject !== 'string') return `${at} must be a string`;
  return paramReason(at, 'address', subject)?.text ?? null;
}

/** The batch's own refusals, checked before the schema's: they name the kind or every item at fault. */
function itemsReason(raw: Readonly<Record<string, unknown>>): Reason<CodeOf<400>> | null {
  if (!isBatchKind(raw.kind)) {
    const kind = raw.kind === undefined ? 'missing' : JSON.stringify(raw.kind);
    return reason('batch_kind_unknown', { kind, kinds: BATCH_KINDS.join(', ') });
  }
  // Anything but an array is the schema's to word.
  if (!Array.isArray(raw.subjects)) return null;
  const count = raw.subjects.length;
  if (count < 1 || count > MAX_BATCH_SUBJECTS) {
    return reason('batch_size', { most: MAX_BATCH_SUBJECTS, count });
  }
  const problems = raw.subjects.map(subjectProblem).filter((p): p is string => p !== null);
  if (problems.length === 0) return null;
  return reason('batch_subjects_invalid', { count: problems.length, problems: problems.join('; ') });
}

/** The body as a JSON object, or null (the schema's check then words why it is not one). */
function rawObject(text: string): Readonly<Record<string, unknown>> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function checkBatchOrder(endpoint: PostEndpoint, text: string): BatchCheck {
  const raw = rawObject(text);
  const problem = raw === null ? null : itemsReason(raw);
  if (problem !== null) return refuseBody(problem);
  const parsed = parseJsonBody(endpoint.body, text);
  if (!parsed.ok) return parsed;
  const value = parsed.value as BatchOrder;
  const order: BatchOrder = { kind: value.kind, subjects: [...value.subjects] };
  const canonical = canonicalBatch(order);
  const sha256 = createHash('sha256').update(canonical).digest('hex');
  return { ok: true, order, distinct: [...new Set(order.subjects)], canonical, sha256 };
}
