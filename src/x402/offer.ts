/**
 * The 402 offer for one paid endpoint: the v1 PaymentRequired body exactly as the contract
 * words it (network `solana-mainnet`, or `solana` when the operator sets X402_V1_NETWORK) and the same offer as a v2 `PAYMENT-REQUIRED` header
 * (CAIP-2 network, `amount`), which current official clients read first.
 *
 * Only the resource URL differs between requests, so each offer is serialised once into a
 * template and the URL is spliced in per request: the body is the template's two halves joined
 * around the quoted URL (a string: node:http then writes head and body in one piece, and no
 * buffer is allocated per request), and of the base64 header only the URL's part is encoded
 * (see splitAt3).
 */
import { z } from '@hono/zod-openapi';
import { atomicPrice, orderPriceUsd, type PaidEndpoint } from '../catalog.js';
import { BatchResultSchema } from '../contract/batch-result.js';
import { type PaymentRequired, ScanResultSchema } from '../contract/schemas.js';
import type { CodeOf, Reason } from '../reasons.js';
import { bazaarExtension, type ServiceMetadata, serviceMetadata } from './bazaar.js';
import { ADVERTISED_NETWORK, SOLANA_MAINNET_CAIP2, USDC_MINT, type V1NetworkName } from './networks.js';

export interface OfferTerms {
  readonly payTo: string;
  /** Facilitator fee payer the client must build its transaction around; null = none known. */
  readonly feePayer: string | null;
  readonly maxTimeoutSeconds: number;
  /** Why the 402: its `error` text, and its code, the body's `reason` (src/reasons.ts). */
  readonly why: Reason<CodeOf<402>>;
  /** Service name, tags and icon on the v2 `resource`; absent = name and tags only. */
  readonly service?: ServiceMetadata;
  /** The network the v1 body names (X402_V1_NETWORK); absent = the contract's `solana-mainnet`. */
  readonly v1Network?: V1NetworkName;
}

export interface RenderedOffer {
  /** JSON of the v1 PaymentRequired body. */
  readonly body: string;
  /** Its length in UTF-8 bytes: the Content-Length. */
  readonly bodyBytes: number;
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
/** The ScanResult as JSON Schema, compacted: what offers and discovery documents show as output. */
export function outputJsonSchema(): Record<string, unknown> {
  scanResultJsonSchema ??= compact(z.toJSONSchema(ScanResultSchema, { io: 'output' })) as Record<
    string,
    unknown
  >;
  return scanResultJsonSchema;
}

let batchResultJsonSchema: Record<string, unknown> | undefined;
/**
 * What an endpoint answers, as JSON Schema: a batch its BatchResult (a ScanResult per subject),
 * every other endpoint the ScanResult.
 */
export function answerJsonSchema(endpoint: PaidEndpoint): Record<string, unknown> {
  if (endpoint.producer !== 'batch') return outputJsonSchema();
  batchResultJsonSchema ??= compact(z.toJSONSchema(BatchResultSchema, { io: 'output' })) as Record<
    string,
    unknown
  >;
  return batchResultJsonSchema;
}

/** The v2 `extensions` of an endpoint: static, so built once per endpoint. */
const extensionsByEndpoint = new Map<string, Record<string, unknown>>();
export function offerExtensions(endpoint: PaidEndpoint): Record<string, unknown> {
  let extensions = extensionsByEndpoint.get(endpoint.id);
  if (extensions === undefined) {
    extensions = { bazaar: bazaarExtension(endpoint, answerJsonSchema(endpoint)) };
    extensionsByEndpoint.set(endpoint.id, extensions);
  }
  return extensions;
}

/** How to call the endpoint, as v1 `outputSchema.input` says it (x402 v1 HTTP input schema). */
function v1Input(endpoint: PaidEndpoint) {
  if (endpoint.method === 'POST') {
    return {
      type: 'http',
      method: 'POST',
      discoverable: true,
      bodyType: 'json',
      bodyFields: endpoint.body.schema.properties,
    };
  }
  const { name, description } = endpoint.param;
  return {
    type: 'http',
    method: 'GET',
    discoverable: true,
    pathParams: { [name]: { type: 'string', description } },
  };
}

/** The v1 requirement object (one `accepts` entry) for a resource URL. */
export function v1Requirement(
  endpoint: PaidEndpoint,
  terms: Pick<OfferTerms, 'payTo' | 'feePayer' | 'maxTimeoutSeconds' | 'v1Network'>,
  resource: string,
  priceUsd = orderPriceUsd(endpoint),
) {
  return {
    scheme: 'exact' as const,
    network: terms.v1Network ?? ADVERTISED_NETWORK,
    maxAmountRequired: atomicPrice(priceUsd),
    resource,
    description: endpoint.summary,
    mimeType: MIME_TYPE,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    asset: USDC_MINT,
    outputSchema: { input: v1Input(endpoint), output: answerJsonSchema(endpoint) },
    ...(terms.feePayer === null ? {} : { extra: { feePayer: terms.feePayer } }),
  };
}

/** The v2 requirement object (one `accepts` entry of the PAYMENT-REQUIRED header). */
export function v2Requirement(
  endpoint: PaidEndpoint,
  terms: Pick<OfferTerms, 'payTo' | 'feePayer' | 'maxTimeoutSeconds'>,
  priceUsd = orderPriceUsd(endpoint),
) {
  return {
    scheme: 'exact' as const,
    network: SOLANA_MAINNET_CAIP2,
    amount: atomicPrice(priceUsd),
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

/** JSON whitespace: a parser skips it between tokens, so padding changes no value. */
const PAD = '  ';

/** `text` followed by spaces up to a multiple of 3 bytes: base64 of it then ends on a whole group. */
function padTo3(text: string): string {
  return text + PAD.slice(0, (3 - (Buffer.byteLength(text) % 3)) % 3);
}

/**
 * The v2 header as three base64 pieces: base64 of a concatenation is the concatenation of the
 * pieces' base64 when every piece but the last is a multiple of 3 bytes long. The head is
 * padded to that once; per request only the quoted URL (padded the same way) is encoded.
 */
function splitAt3(head: string, tail: string): { head: string; tail: string } {
  return {
    head: Buffer.from(padTo3(head)).toString('base64'),
    tail: Buffer.from(tail).toString('base64'),
  };
}

/**
 * The offer of `endpoint` at `priceUsd`: its price per call, or what one order of an endpoint
 * priced per hour costs (one hour unless told).
 */
export function createOfferTemplate(
  endpoint: PaidEndpoint,
  terms: OfferTerms,
  priceUsd = orderPriceUsd(endpoint),
): OfferTemplate {
  const v1: PaymentRequired & { error: string; reason: string } = {
    x402Version: 1,
    error: terms.why.text,
    reason: terms.why.code,
    accepts: [v1Requirement(endpoint, terms, SENTINEL, priceUsd)],
  };
  const v2 = {
    x402Version: 2,
    error: terms.why.text,
    reason: terms.why.code,
    resource: {
      url: SENTINEL,
      description: endpoint.summary,
      mimeType: MIME_TYPE,
      ...(terms.service ?? serviceMetadata(null)),
    },
    accepts: [v2Requirement(endpoint, terms, priceUsd)],
    extensions: offerExtensions(endpoint),
  };
  const [bodyHead, bodyTail] = splitTemplate(JSON.stringify(v1));
  const fixedBytes = Buffer.byteLength(bodyHead) + Buffer.byteLength(bodyTail);
  const header = splitAt3(...splitTemplate(JSON.stringify(v2)));
  return {
    render(resourceUrl) {
      const plain = PLAIN_JSON_TEXT.test(resourceUrl);
      const url = plain ? `"${resourceUrl}"` : JSON.stringify(resourceUrl);
      const urlBytes = plain ? url.length : Buffer.byteLength(url);
      return {
        body: bodyHead + url + bodyTail,
        bodyBytes: fixedBytes + urlBytes,
        header: header.head + base64Padded(url, urlBytes) + header.tail,
      };
    },
  };
}

/** Printable ASCII but `"` and `\`: JSON quotes such text as it is, one byte per character. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Reused for every short URL: rendering is synchronous. Long URLs get their own buffer. */
const scratch = Buffer.alloc(1024);

/** base64 of `text` (`bytes` long in UTF-8) padded with spaces to a multiple of 3 bytes. */
function base64Padded(text: string, bytes: number): string {
  const padded = bytes + ((3 - (bytes % 3)) % 3);
  if (padded > scratch.length) return Buffer.from(padTo3(text)).toString('base64');
  scratch.write(text, 0);
  scratch[bytes] = 0x20;
  scratch[bytes + 1] = 0x20;
  return scratch.toString('base64', 0, padded);
}
