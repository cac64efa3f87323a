/**
 * One POST to a webhook, to an address the SSRF guard checked (the request's lookup is pinned
 * to them), bounded in time, following no redirect (node:http never does), and reading at most
 * a few bytes of the answer: a webhook cannot hold the worker nor fill its memory.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { errorMessage } from '../../errors.js';
import { type CheckedWebhook, pinnedLookup } from '../webhook-url.js';

export interface PostLimits {
  /** The whole exchange, connection to last byte read. */
  readonly timeoutMs: number;
  /** Bytes of the answer's body read at most; the connection is dropped past them. */
  readonly maxResponseBytes: number;
}

export interface PostOutcome {
  /** The webhook's HTTP status; null when no answer came. */
  readonly status: number | null;
  readonly error?: string;
}

export function postWebhook(
  target: CheckedWebhook,
  headers: Readonly<Record<string, string>>,
  body: string,
  limits: PostLimits,
): Promise<PostOutcome> {
  const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const req = request(target.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      lookup: pinnedLookup(target.addresses),
      // A fresh connection each time, so the pinned lookup is what every attempt connects by.
      agent: false,
    });
    const timer = setTimeout(
      () => finish({ status: null, error: `no answer within ${limits.timeoutMs} ms` }),
      limits.timeoutMs,
    );
    req.on('error', (e) => finish({ status: null, error: errorMessage(e) }));
    req.on('response', (res) => {
      const status = res.statusCode ?? null;
      const redirect =
        status !== null && status >= 300 && status < 400 ? { error: 'redirect not followed' } : {};
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.maxResponseBytes) finish({ status, ...redirect });
      });
      res.on('end', () => finish({ status, ...redirect }));
      res.on('error', () => finish({ status, ...redirect }));
    });
    req.end(body);
  });
}
