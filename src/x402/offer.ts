/**
 * The 402 offer for one paid endpoint: the v1 PaymentRequired body exactly as the contract
 * words it (network `solana-mainnet`) and the same offer as a v2 `PAYMENT-REQUIRED` header
 * (CAIP-2 network, `amount`), which current official clients read first.
 *
 * Only the resource URL differs between requests, so each offer is serialised once into a
 * template and the URL is spliced in per request.
 */
import { z } from '@hono/zod-openapi';
import { atomicPrice, type PaidEndpoint } from '../catalog.js';
import { type PaymentRequired, ScanResultSchema } from '../contract/schemas.js';
import { ADVERTISED_NETWORK, SOLANA_MAINNET_CAIP2, USDC_MINT } from './networks.js';

export interface OfferTerms {
  readonly payTo: string;
  /** Facilitator fee payer the client must build its transaction around; null = none known. */
  readonly feePayer: string | null;
  readonly maxTimeoutSeconds: number;
  /** The `error` text of the 402 body. */
  readonly error: string;
}

export interface RenderedOffer {
  /** JSON text of the v1 PaymentRequired body. */
  readonly body: string;
  /** base64(JSON) of the v2 PaymentRequired, for the PAYMENT-REQUIRED header. */
  readonly header: string;
}

export interface OfferTemplate {
  render(resourceUrl: string): RenderedOffer;
}

const MIME_TYPE = 'application/json';
const SENTINEL = '\u0000resource\u0000';

/** Drops `$schema` and regex `pattern`s: `format` says the same to a client in far fewer bytes. */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'pattern' && key !== '$schema')
      .map(([key, value]) => [key, compact(value)]),
  );
}

let scanResultJsonSchema: Record<string, unknown> | undefined;
function outputJsonSchema(): Record<string, unknown> {
  scanResultJsonSchema ??= compact(z.toJSONSchema(ScanResultSchema, { io: 'output' })) as Record<
    string,
    unknown
  >;
  return scanResultJsonSchema;
}

/** The v1 requirement object (one `accepts` entry) for a resource URL. */
export function v1Requirement(endpoint: PaidEndpoint, terms: OfferTerms, resource: string) {
  return {
    scheme: 'exact' as const,
    network: ADVERTISED_NETWORK,
    maxAmountRequired: atomicPrice(endpoint.priceUsd),
    resource,
    description: endpoint.summary,
    mimeType: MIME_TYPE,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    asset: USDC_MINT,
    outputSchema: {
      input: {
        type: 'http',
        method: 'GET',
        discoverable: true,
        pathParams: { [endpoint.param.name]: { type: 'string', description: endpoint.param.description } },
      },
      output: outputJsonSchema(),
    },
    ...(terms.feePayer === null ? {} : { extra: { feePayer: terms.feePayer } }),
  };
}

/** The v2 requirement object (one `accepts` entry of the PAYMENT-REQUIRED header). */
export function v2Requirement(endpoint: PaidEndpoint, terms: OfferTerms) {
  return {
    scheme: 'exact' as const,
    network: SOLANA_MAINNET_CAIP2,
    amount: atomicPrice(endpoint.priceUsd),
    asset: USDC_MINT,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    ...(terms.feePayer === null ? {} : { extra: { feePayer: terms.feePayer } }),
  };
}

function splitTemplate(json: string): [string, string] {
  const marker = JSON.stringify(SENTINEL);
  const at = json.indexOf(marker);
  return [json.slice(0, at), json.slice(at + marker.length)];
}

export function createOfferTemplate(endpoint: PaidEndpoint, terms: OfferTerms): OfferTemplate {
  const v1: PaymentRequired & { error: string } = {
    x402Version: 1,
    error: terms.error,
    accepts: [v1Requirement(endpoint, terms, SENTINEL)],
  };
  const v2 = {
    x402Version: 2,
    error: terms.error,
    resource: { url: SENTINEL, description: endpoint.summary, mimeType: MIME_TYPE },
    accepts: [v2Requirement(endpoint, terms)],
  };
  const [bodyHead, bodyTail] = splitTemplate(JSON.stringify(v1));
  const [headerHead, headerTail] = splitTemplate(JSON.stringify(v2));
  return {
    render(resourceUrl) {
      const url = JSON.stringify(resourceUrl);
      return {
        body: bodyHead + url + bodyTail,
        header: Buffer.from(headerHead + url + headerTail).toString('base64'),
      };
    },
  };
}
