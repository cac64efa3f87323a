/**
 * The body of POST /watch, checked before any payment: the JSON its schema describes (kind,
 * subject, webhook, hours), a subject that decodes to a 32-byte address. Pure; the webhook's
 * addresses are checked apart (watch/door/screen.ts), as that needs DNS.
 *
 * What a payment buys is named by the sha256 of the order written canonically, so the same order
 * sent as other JSON (spacing, key order) is the same purchase, and any other order another.
 */
import { createHash } from 'node:crypto';
import type { WatchOrder } from '../terms/bodies.js';
import type { PostEndpoint } from '../terms/entry.js';
import type { WatchKind } from '../terms/subjects.js';
import { type BodyRefusal, parseJsonBody, refuseBody } from './body-schema.js';
import { paramReason } from './schemas.js';

export type { WatchKind, WatchOrder };

export type OrderCheck =
  | {
      readonly ok: true;
      readonly order: WatchOrder;
      /** The order as canonical JSON: the paid call's subject. */
      readonly canonical: string;
      readonly sha256: string;
    }
  | BodyRefusal;

/** The order as one JSON text, keys in a fixed order. */
export function canonicalOrder(order: WatchOrder): string {
  const { kind, subject, webhook, hours } = order;
  return JSON.stringify({ kind, subject, webhook, hours });
}

export function checkWatchOrder(endpoint: PostEndpoint, text: string): OrderCheck {
  const parsed = parseJsonBody(endpoint.body, text);
  if (!parsed.ok) return parsed;
  const value = parsed.value as WatchOrder;
  const problem = paramReason('subject', 'address', value.subject);
  if (problem !== null) return refuseBody(problem);
  const order: WatchOrder = {
    kind: value.kind,
    subject: value.subject,
    webhook: value.webhook,
    hours: value.hours,
  };
  const canonical = canonicalOrder(order);
  const sha256 = createHash('sha256').update(canonical).digest('hex');
  return { ok: true, order, canonical, sha256 };
}

/** The order a paid call's subject carries (its canonical JSON, already checked at admission). */
export function orderOfSubject(subject: string): WatchOrder {
  return JSON.parse(subject) as WatchOrder;
}
