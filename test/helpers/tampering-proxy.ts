/**
 * A tampering HTTP proxy in front of the service, to inject the faults a client must refuse: a
 * 402 whose offer is rewritten (another payee, asset, network, a higher price), a paid 200
 * whose body or X-Signature is altered, or whose X-Signature is dropped, or an unpaid ask
 * answered with a result as if no payment were needed. Everything else is
 * passed as the service answered it. The test sets the tampering before each call.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';

export type Tampering =
  | { readonly kind: 'none' }
  /** Every offer of a 402 rewritten by `change`. */
  | { readonly kind: 'offer'; readonly change: (offer: PaymentRequirements) => PaymentRequirements }
  /** A 200's body with the byte at its middle changed. */
  | { readonly kind: 'body-byte' }
  /** A 200's X-Signature with one character of its signature changed. */
  | { readonly kind: 'signature' }
  /** A 200's X-Signature removed. */
  | { readonly kind: 'unsigned' }
  /** A 402 (the unpaid first ask) answered instead as 200 with `result`, no payment asked. */
  | { readonly kind: 'free-result'; readonly result: unknown }
  /** A paid 200's PAYMENT-RESPONSE receipt replaced by text that is no receipt. */
  | { readonly kind: 'receipt-garbled' }
  /** The published key set (/.well-known/jwks.json) answered 503; every other path passes. */
  | { readonly kind: 'keys-unavailable' };

export interface TamperingProxy {
  readonly url: string;
  set(tampering: Tampering): void;
  /** How many answers were tampered with. */
  readonly tampered: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const SKIPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** The answer's headers and body after the tampering, or null when it leaves them as they are. */
function tamper(
  tampering: Tampering,
  status: number,
  headers: Headers,
  body: Buffer,
): { status?: number; headers: Headers; body: Buffer } | null {
  const out = new Headers(headers);
  if (tampering.kind === 'free-result' && status === 402) {
    const json = new Headers({ 'content-type': 'application/json' });
    return { status: 200, headers: json, body: Buffer.from(JSON.stringify(tampering.result)) };
  }
  if (tampering.kind === 'offer' && status === 402 && headers.has('payment-required')) {
    const required = decodePaymentRequiredHeader(headers.get('payment-required')!);
    const accepts = required.accepts.map(tampering.change);
    out.set('payment-required', encodePaymentRequiredHeader({ ...required, accepts }));
    return { headers: out, body };
  }
  if (status !== 200 || !headers.has('x-signature')) return null;
  if (tampering.kind === 'body-byte') {
    const altered = Buffer.from(body);
    const middle = altered.length >> 1;
    // A digit stays a digit and a letter a letter: still JSON, only no longer what was signed.
    altered[middle] = altered[middle] === 0x31 ? 0x32 : altered[middle] === 0x61 ? 0x62 : 0x20;
    return { headers: out, body: altered };
  }
  if (tampering.kind === 'signature') {
    const value = headers.get('x-signature')!;
    const at = value.indexOf('sig=') + 8;
    out.set('x-signature', `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`);
    return { headers: out, body };
  }
  if (tampering.kind === 'receipt-garbled') {
    out.set('payment-response', 'not-a-receipt');
    return { headers: out, body };
  }
  if (tampering.kind === 'unsigned') {
    out.delete('x-signature');
    return { headers: out, body };
  }
  return null;
}

export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  let tampering: Tampering = { kind: 'none' };
  let tampered = 0;
  const server = createServer(async (req, res) => {
    try {
      if (tampering.kind === 'keys-unavailable' && (req.url ?? '').startsWith('/.well-known/jwks.json')) {
        tampered++;
        res.writeHead(503, { 'content-type': 'text/plain' }).end('keys unavailable');
        return;
      }
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (!SKIPPED.has(name) && typeof value === 'string') headers.set(name, value);
      const answer = await fetch(new URL(req.url ?? '/', target), {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const changed = tamper(tampering, answer.status, answer.headers, bytes);
      if (changed !== null) tampered++;
      const sent = changed ?? { headers: answer.headers, body: bytes };
      const out: Record<string, string> = {};
      sent.headers.forEach((value, name) => {
        if (!SKIPPED.has(name) && name !== 'content-encoding') out[name] = value;
      });
      res.writeHead(changed?.status ?? answer.status, out).end(sent.body);
    } catch (e) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next) => {
      tampering = next;
    },
    get tampered() {
      return tampered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
