/**
 * Builds real x402 payments the way official clients do (@x402/svm client schemes, signed
 * by a real keypair against the sandbox RPC), so tests can also tamper with them.
 */
import type { KeyPairSigner } from '@solana/kit';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm';
import { ExactSvmSchemeV1 } from '@x402/svm/v1';
import { jsonOf } from './service.js';

export interface Offer {
  /** The v1 `accepts[0]` of the 402 body (undefined from a v2-only server, such as @x402/hono). */
  readonly v1: Record<string, any>;
  /** The v2 `accepts[0]` of the PAYMENT-REQUIRED header. */
  readonly v2: PaymentRequirements;
  readonly resourceUrl: string;
}

export async function offerOf(url: string): Promise<Offer> {
  const res = await fetch(url);
  if (res.status !== 402) throw new Error(`expected 402 from ${url}, got ${res.status}`);
  const body = await jsonOf(res);
  const header = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
  return {
    v1: body.accepts?.[0],
    v2: header.accepts[0] as PaymentRequirements,
    resourceUrl: header.resource.url,
  };
}

export const encodeHeader = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');

/** A v2 payment (PAYMENT-SIGNATURE) for `requirements`, as @x402/fetch builds it. */
export async function v2Payment(
  payer: KeyPairSigner,
  rpcUrl: string,
  requirements: PaymentRequirements,
  resourceUrl: string,
): Promise<Record<string, any>> {
  const built = await new ExactSvmScheme(payer, { rpcUrl }).createPaymentPayload(2, requirements);
  return { x402Version: 2, payload: built.payload, accepted: requirements, resource: { url: resourceUrl } };
}

/**
 * A v1 payment (X-PAYMENT) labelled with `network`. The stock v1 client only builds for
 * "solana", so it builds with that name and the label is applied after, as a client that
 * knows the contract's "solana-mainnet" would.
 */
export async function v1Payment(
  payer: KeyPairSigner,
  rpcUrl: string,
  requirements: Record<string, any>,
  network: string,
): Promise<Record<string, any>> {
  const scheme = new ExactSvmSchemeV1(payer, { rpcUrl });
  const built = await scheme.createPaymentPayload(1, { ...requirements, network: 'solana' } as never);
  return { ...built, scheme: 'exact', network };
}

export async function pay(url: string, header: string, name = 'PAYMENT-SIGNATURE'): Promise<Response> {
  return fetch(url, { headers: { [name]: header } });
}
