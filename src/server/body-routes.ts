/**
 * The paid POST routes, generated from the catalog. The body is checked by the paid door before
 * the caller is asked to pay: too large (here, as it streams in), not JSON or not what its schema
 * describes is a 400 with the reason. An unpaid request with a good body (or none: indexers probe
 * so) gets the endpoint's 402 offer.
 *
 * What a payment buys is named by the digest of its body (a transaction's wire bytes, a watch
 * order's canonical JSON), so the same payment with the same body gives the stored result again
 * and with another is refused (`payment_used`).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PostEndpoint } from '../catalog.js';
import { reasonError } from '../errors.js';
import { reason } from '../reasons.js';
import type { AppEnv } from './context.js';
import { answerPaid, type PaidRouteDeps } from './paid-answers.js';

export function registerBodyEndpoint(app: Hono<AppEnv>, deps: PaidRouteDeps, endpoint: PostEndpoint): void {
  const { maxBodyBytes, field } = endpoint.body;
  const why =
    'maxDecodedBytes' in endpoint.body
      ? `; a transaction is at most ${endpoint.body.maxDecodedBytes} bytes`
      : '';
  const limit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => {
      throw reasonError(reason('body_too_large', { bytes: maxBodyBytes, why }), { parameter: field });
    },
  });
  app.post(endpoint.path, limit, async (c: Context<AppEnv>) =>
    answerPaid(c, deps, endpoint, await c.req.text()),
  );
}
