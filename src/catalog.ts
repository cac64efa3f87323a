/**
 * The one table every paid endpoint is generated from: routes, input validation, prices,
 * 402 offers, OpenAPI, discovery documents, MCP tools and tests all read it. Nothing else
 * repeats a path or a price, and nothing outside an endpoint's own folder asks which endpoint
 * it has: what differs between endpoints is said here (input, response, price rule, producer).
 */

import { BatchResultSchema } from './contract/batch-result.js';
import { paramSchema, ScanResultSchema } from './contract/schemas.js';
import { WatchCreatedSchema } from './contract/watch-created.js';
import {
  BatchOrderSchema,
  bodySchemaOf,
  MAX_BATCH_SUBJECTS,
  MAX_TRANSACTION_BYTES,
  MAX_WATCH_HOURS,
  SIMULATE_EXAMPLE_TX,
  SimulateBodySchema,
  WatchOrderSchema,
} from './terms/bodies.js';
import type {
  PaidEndpoint as AnyEndpoint,
  PostEndpoint as AnyPostEndpoint,
  GetEndpoint,
} from './terms/entry.js';
import { type PriceRule, purchasePriceUsd, purchaseRange, ruleText } from './terms/price.js';
import { BATCH_KINDS, type BatchKind } from './terms/subjects.js';

export {
  type BatchOrder,
  MAX_BATCH_SUBJECTS,
  MAX_TRANSACTION_BYTES,
  MAX_WATCH_HOURS,
  type WatchOrder,
} from './terms/bodies.js';

export {
  type BodyInput,
  type BodyReader,
  type BodySchema,
  EFFECTS,
  type Effects,
  type GetEndpoint,
  type Producer,
  type TransactionBodyInput,
} from './terms/entry.js';
export {
  atomicPrice,
  itemsPriceUsd,
  type PriceRule,
  USDC_DECIMALS,
  unitPriceText,
  usdText,
} from './terms/price.js';
export {
  BATCH_KINDS,
  type BatchKind,
  type ParamKind,
  SUBJECT_KINDS,
  type SubjectKind,
  WATCH_KINDS,
  type WatchKind,
} from './terms/subjects.js';

/** A GET's path parameter, with the zod schema OpenAPI states it by (its text's shape, its bytes). */
function pathParam<const P extends Omit<GetEndpoint['param'], 'input'>>(param: P) {
  return { ...param, input: paramSchema(param.kind, param.description, param.example) };
}

/** The contract's five GETs, in its order (the head of PAID_ENDPOINTS). */
const GET_ENTRIES = [
  {
    id: 'pumpfun',
    method: 'GET',
    operationId: 'scanPumpfunToken',
    path: '/scan/pumpfun/{mint}',
    param: pathParam({
      name: 'mint',
      kind: 'address',
      description: 'Base58 mint address of a token launched on pump.fun.',
      example: '3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump',
    }),
    price: { per: 'call', usd: 0.5 },
    producer: 'scan',
    response: ScanResultSchema,
    cacheTtlSeconds: 60,
    summary: 'Risk scan of a pump.fun token',
    description:
      'Developer history (every launch by the same creator), holder concentration, supply and bonding-curve state of a token created on pump.fun, plus every generic token check.',
    assesses: ['developer history', 'holder concentration', 'supply'],
  },
  {
    id: 'token',
    method: 'GET',
    operationId: 'scanToken',
    path: '/scan/token/{mint}',
    param: pathParam({
      name: 'mint',
      kind: 'address',
      description: 'Base58 mint address of an SPL Token or Token-2022 token.',
      example: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    }),
    price: { per: 'call', usd: 0.3 },
    producer: 'scan',
    response: ScanResultSchema,
    cacheTtlSeconds: 300,
    summary: 'Risk scan of an SPL / Token-2022 token',
    description:
      'Mint and freeze authority, Token-2022 extensions (permanent delegate, transfer fee, transfer hook, …), metadata mutability and holder concentration of any Solana token.',
    assesses: ['mint authority', 'freeze authority', 'holder concentration'],
  },
  {
    id: 'wallet',
    method: 'GET',
    operationId: 'scanWallet',
    path: '/scan/wallet/{address}',
    param: pathParam({
      name: 'address',
      kind: 'address',
      description: 'Base58 address of a wallet.',
      example: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    }),
    price: { per: 'call', usd: 0.02 },
    producer: 'scan',
    response: ScanResultSchema,
    cacheTtlSeconds: 120,
    summary: 'Risk scan of a wallet',
    description: 'Burner patterns, activity, age and transaction failure rate of a wallet.',
    assesses: ['burner patterns', 'activity', 'failure rate'],
  },
  {
    id: 'tx',
    method: 'GET',
    operationId: 'verifyTransaction',
    path: '/verify/tx/{signature}',
    param: pathParam({
      name: 'signature',
      kind: 'signature',
      description: 'Base58 transaction signature (64 bytes).',
      example: '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v',
    }),
    price: { per: 'call', usd: 0.05 },
    producer: 'scan',
    response: ScanResultSchema,
    // Finalized transactions never change; the scanner shortens this for unfinalized ones.
    cacheTtlSeconds: 3600,
    summary: 'Verify a transaction',
    description:
      'Whether a transaction landed and succeeded, its fee (base and priority), the SOL balance change of every signer and the drainer patterns it contains.',
    assesses: ['success', 'fees', 'signer SOL balance change'],
  },
  {
    id: 'program',
    method: 'GET',
    operationId: 'scanProgram',
    path: '/scan/program/{id}',
    param: pathParam({
      name: 'id',
      kind: 'address',
      description: 'Base58 program id.',
      example: 'MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD',
    }),
    price: { per: 'call', usd: 1 },
    producer: 'scan',
    response: ScanResultSchema,
    cacheTtlSeconds: 600,
    summary: 'Risk scan of a program',
    description:
      'Upgrade authority (none, single key, multisig), last deploy and recent upgrades of a program.',
    assesses: ['upgrade authority', 'recent upgrades'],
  },
] as const satisfies readonly GetEndpoint[];

/** Each kind a batch scans, at its single scan's price as its GET entry states it. */
function singlePrices(): Readonly<Record<BatchKind, number>> {
  const single = new Map<string, number>(GET_ENTRIES.map((entry) => [entry.id, entry.price.usd]));
  return Object.fromEntries(BATCH_KINDS.map((kind) => [kind, single.get(kind)!])) as Record<
    BatchKind,
    number
  >;
}

export const PAID_ENDPOINTS = [
  ...GET_ENTRIES,
  {
    id: 'simulate',
    method: 'POST',
    operationId: 'simulateTransaction',
    path: '/simulate/tx',
    body: {
      field: 'transaction',
      maxDecodedBytes: MAX_TRANSACTION_BYTES,
      // base64 of 1232 bytes is 1644 characters; the rest leaves room for JSON and whitespace.
      maxBodyBytes: 2048,
      input: SimulateBodySchema,
      schema: bodySchemaOf(SimulateBodySchema),
      reads: 'transaction',
      example: { transaction: SIMULATE_EXAMPLE_TX },
    },
    price: { per: 'call', usd: 0.05 },
    producer: 'scan',
    response: ScanResultSchema,
    // A simulation reads the chain as it is now: it is never served from the cache.
    cacheTtlSeconds: 0,
    summary: 'Simulate a transaction before signing it',
    description:
      'What an unsigned or signed transaction would do to each signer if sent now: SOL and token balance changes, approvals and delegations, ownership or authority handed over, accounts closed and where their lamports go, durable-nonce use, the programs it invokes and whether it would fail.',
    assesses: ['balance changes', 'approvals and authority changes', 'programs invoked'],
  },
  {
    id: 'watch',
    method: 'POST',
    operationId: 'createWatch',
    tool: 'watch_subject',
    path: '/watch',
    body: {
      field: 'body',
      maxBodyBytes: 4096,
      input: WatchOrderSchema,
      schema: bodySchemaOf(WatchOrderSchema),
      reads: 'watch-order',
      example: {
        kind: 'token',
        subject: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        webhook: 'https://example.com/hooks/risk-scan',
        hours: 24,
      },
    },
    // A watch re-assesses its subject for hours: priced per hour, far below a scan per check.
    price: { per: 'hour', usd: 0.01, most: MAX_WATCH_HOURS },
    producer: 'watch',
    response: WatchCreatedSchema,
    noRoom: 'no room for another watch on this subject or in all (Retry-After); nothing was charged',
    // The baseline is a fresh scan: never served from the cache.
    cacheTtlSeconds: 0,
    summary: 'Watch a subject: a signed alert when its risk changes',
    description:
      "Follows a token, pump.fun token, wallet or program for 1 to 168 hours and POSTs a signed alert (Standard Webhooks, Ed25519 v1a and the watch's own v1 secret) to your webhook when its flags or risk score change. The answer gives the watch id (the only key to read or cancel it), its expiry, the baseline ScanResult and how deliveries are signed.",
    assesses: ['flag changes', 'risk score changes', 'webhook alerts'],
  },
  {
    id: 'batch',
    method: 'POST',
    operationId: 'scanBatch',
    tool: 'scan_batch',
    path: '/scan/batch',
    body: {
      field: 'body',
      // 25 addresses of 44 characters, quoted and spaced, are about 1.3 KB.
      maxBodyBytes: 4096,
      input: BatchOrderSchema,
      schema: bodySchemaOf(BatchOrderSchema),
      reads: 'batch-order',
      example: {
        kind: 'token',
        subjects: [
          'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
          'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
        ],
      },
    },
    // Each subject costs what its single scan costs (the operator may discount it).
    price: { per: 'item', usd: singlePrices(), most: MAX_BATCH_SUBJECTS },
    producer: 'batch',
    response: BatchResultSchema,
    // The batch itself is never cached; each of its items is, as its single scan is.
    cacheTtlSeconds: 0,
    // Its subjects are scanned at once, each within SCAN_TIMEOUT_MS as a single scan is: a batch
    // takes one scan's deadline, so the offer's maxTimeoutSeconds that covers a scan covers it.
    summary: 'Risk scan of 1 to 25 tokens, pump.fun tokens or wallets in one call',
    description:
      'The GET scan of one kind (token, pumpfun or wallet) for up to 25 subjects, paid once: one ScanResult per subject in the order sent, each what the single scan would answer (a subject whose data could not be read carries its *_UNAVAILABLE flags). A repeated subject is scanned and charged once. The batch is delivered whole or not at all: if any subject cannot be scanned, the answer is a 500 naming it and the payment is not settled.',
    assesses: ['each subject as its single scan does', 'in one payment'],
  },
] as const satisfies readonly AnyEndpoint[];

type Entry = (typeof PAID_ENDPOINTS)[number];
export type EndpointId = Entry['id'];
/** A POST endpoint of this catalog. */
export type PostEndpoint = AnyPostEndpoint & { readonly id: EndpointId };
/** An endpoint of this catalog. */
export type PaidEndpoint = GetEndpoint | PostEndpoint;
/** The endpoints a scanner answers: those whose producer is the scan. */
export type ScanId = Extract<Entry, { readonly producer: 'scan' }>['id'];

const ALL: readonly PaidEndpoint[] = PAID_ENDPOINTS;

export const isGetEndpoint = (e: PaidEndpoint): e is GetEndpoint => e.method === 'GET';

/** The contract's five GET endpoints, in its order. */
export const GET_ENDPOINTS: readonly GetEndpoint[] = ALL.filter(isGetEndpoint);

/** The endpoints a scanner answers (all but the watches' and the batches' doors). */
export const SCAN_ENDPOINTS = ALL.filter(
  (e): e is PaidEndpoint & { readonly id: ScanId } => e.producer === 'scan',
);

/** The endpoints that take a JSON body. */
export const POST_ENDPOINTS: readonly PostEndpoint[] = ALL.filter(
  (e): e is PostEndpoint => e.method === 'POST',
);

const BY_ID: ReadonlyMap<string, PaidEndpoint> = new Map(ALL.map((e) => [e.id, e]));

/** The endpoint a scan id names (a watch runs the GET scan of its kind). */
export const endpointById = (id: ScanId): PaidEndpoint => BY_ID.get(id)!;

/** '/scan/token/{mint}' → '/scan/token/:mint' (Hono's syntax). */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** '/scan/token/{mint}' with a value → '/scan/token/<value>'. */
export function concretePath(endpoint: GetEndpoint, value: string): string {
  return endpoint.path.replace(`{${endpoint.param.name}}`, value);
}

/**
 * The price an endpoint lists, and what it is per: for a price per item, the cheapest item's
 * (less `discountPercent`, the operator's BATCH_DISCOUNT_PERCENT).
 */
export function listedPrice(
  endpoint: PaidEndpoint,
  discountPercent = 0,
): { readonly usd: number; readonly per: PriceRule['per'] } {
  return { usd: purchasePriceUsd(endpoint.price, 1, discountPercent), per: endpoint.price.per };
}

/** '0.30 USDC per call', '0.01 USDC per hour', '0.02 to 0.50 USDC per item (…)'. */
export const priceText = (endpoint: PaidEndpoint, discountPercent = 0): string =>
  ruleText(endpoint.price, discountPercent);

/** The least and most one purchase costs: the price per call twice, or 1 unit and the most. */
export const priceRange = (endpoint: PaidEndpoint, discountPercent = 0) =>
  purchaseRange(endpoint.price, discountPercent);

/**
 * What one purchase costs in USD: the price per call, or `units` (hours, items of the cheapest
 * kind) × the price per unit.
 */
export const orderPriceUsd = (endpoint: PaidEndpoint, units = 1, discountPercent = 0): number =>
  purchasePriceUsd(endpoint.price, units, discountPercent);
