/**
 * The paid POST routes (DESIGN §6d), generated from the catalog. The body is checked before the
 * caller is asked to pay: too large, not JSON or not a transaction is a 400 with the reason. An
 * unpaid request with a good body (or none: indexers probe so) gets the endpoint's 402 offer.
 *
 * What a payment buys is the simulation of one transaction: its key names the sha256 of the wire
 * bytes, so the same payment with the same transaction gives the stored result again and with
 * another is refused (`payment_used`).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PostEndpoint } from '../catalog.js';
import { ServiceError } from '../errors.js';
import { admitBodyRequest } from './admission.js';
import type { AppEnv } from './context.js';
import { paymentFingerprint } from './logger.js';
import { handOver, type PaidRouteDeps, paymentRequired, presentedPayment } from './paid-routes.js';

/** What one payment at `path` buys: the transaction with this digest. */
export function paidForBody(path: string, sha256: string): string {
  return `${path} (transaction sha256 ${sha256})`;
}

function invalid(endpoint: PostEndpoint, message: string): never {
  throw new ServiceError('invalid_input', message, { parameter: endpoint.body.field });
}

export function registerBodyEndpoint(app: Hono<AppEnv>, deps: PaidRouteDeps, endpoint: PostEndpoint): void {
  const { maxBodyBytes } = endpoint.body;
  const limit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () =>
      invalid(endpoint, `the body is over ${maxBodyBytes} bytes; a transaction is at most 1232 bytes`),
  });
  app.post(endpoint.path, limit, async (c: Context<AppEnv>) => {
    const body = await c.req.text();
    const hasPayment =
      c.req.header('x-payment') !== undefined || c.req.header('payment-signature') !== undefined;
    const gate = deps.paymentGate;
    const admission = admitBodyRequest(endpoint, { body, hasPayment }, gate !== undefined);
    if (admission.kind === 'invalid') invalid(endpoint, admission.message);
    if (admission.kind === 'offer') return paymentRequired(c, deps, endpoint, endpoint.path);
    if (admission.kind === 'refuse_payment' || gate === undefined) {
      deps.metrics?.payment('refused');
      const reason = admission.kind === 'refuse_payment' ? admission.reason : 'payments are not wired';
      return paymentRequired(c, deps, endpoint, endpoint.path, reason);
    }
    const { transaction } = admission;
    const paidFor = paidForBody(endpoint.path, transaction.sha256);
    const payment = presentedPayment(c, deps, endpoint.path, paidFor)!;
    c.env.frame.logFields.payment = paymentFingerprint(payment.header);
    const call = { endpoint, subject: transaction.base64, payment, requestId: c.env.frame.requestId };
    return handOver(c, deps, gate, call, endpoint.path);
  });
}
