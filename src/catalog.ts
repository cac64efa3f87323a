/**
 * The one table every paid endpoint is generated from: routes, input validation, prices,
 * 402 offers, OpenAPI, discovery documents and tests all read it. Nothing else repeats a
 * path or a price.
 */

/** What a path parameter must decode to: a 32-byte address or a 64-byte signature. */
export type ParamKind = 'address' | 'signature';

/** A price per call: every call pays the same. */
interface PricedPerCall {
  /** Price per call in USD, paid in USDC. */
  readonly priceUsd: number;
  readonly priceUsdPerHour?: never;
}

/** A price per hour of service: a call pays its body's `hours` times this. */
interface PricedPerHour {
  /** Price of one hour in USD, paid in USDC. */
  readonly priceUsdPerHour: number;
  readonly priceUsd?: never;
}

interface EndpointFacts {
  /** Stable id, also the scanner's folder name (`watch`: the watches' paid door). */
  readonly id: ScanId | 'watch';
  /** OpenAPI operationId. */
  readonly operationId: string;
  /** The MCP tool's name, when not derived from the path. */
  readonly tool?: string;
  /** How long a result may be served from the cache. */
  readonly cacheTtlSeconds: number;
  readonly summary: string;
  readonly description: string;
  /** What the scan looks at, for discovery documents. */
  readonly assesses: readonly string[];
}

type EndpointBase = EndpointFacts & (PricedPerCall | PricedPerHour);

/** The contract's shape (interface.md §4.1): a GET whose subject is its one path parameter. */
export type GetEndpoint = EndpointFacts &
  PricedPerCall & {
    readonly id: ScanId;
    readonly method: 'GET';
    /** OpenAPI-style path with one `{param}`. */
    readonly path: string;
    readonly param: {
      readonly name: string;
      readonly kind: ParamKind;
      readonly description: string;
      readonly example: string;
    };
  };

/** A JSON body's JSON Schema (2020-12): what OpenAPI, Bazaar and MCP tools show, and what it is validated against. */
export interface BodySchema {
  readonly type: 'object';
  readonly description: string;
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** What a JSON body must hold: an object its JSON Schema describes, and an example. */
export interface BodyInput {
  /** What a 400 about the body as a whole names as the parameter at fault. */
  readonly field: string;
  /** Most bytes of HTTP body taken. */
  readonly maxBodyBytes: number;
  readonly schema: BodySchema;
  readonly example: Readonly<Record<string, string | number>>;
}

/** A body whose one field is a base64 wire transaction (`field`, at most `maxDecodedBytes`). */
export interface TransactionBodyInput extends BodyInput {
  /** Most bytes the field may decode to. */
  readonly maxDecodedBytes: number;
}

/** Our own addition beside the contract's GETs: a POST whose subject is its JSON body. */
export type PostEndpoint = EndpointBase & {
  readonly method: 'POST';
  /** The path, without parameters. */
  readonly path: string;
  readonly body: BodyInput | TransactionBodyInput;
};

export type PaidEndpoint = GetEndpoint | PostEndpoint;

/** Legacy and v0 transactions share this wire limit (the packet size, 1232 bytes). */
export const MAX_TRANSACTION_BYTES = 1232;

/**
 * The documented example body of /simulate/tx: an unsigned legacy USDC transferChecked of 1 USDC
 * between two associated token accounts (regenerate with `npx tsx scripts/simulate-example.ts`).
 */
const SIMULATE_EXAMPLE_TX =
  'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAIFfowIh2C/3h3dzzLBfyCbgkLuUqrxMfrNiNDqLG0LBvLT6oz1rKyozQUgdRIXXEPO9Upd2Z7eIKFrVSU3OPOX3PdB78uRI342SpqA+TVsD/f4o3WfVFRxtym9Ukb3B08dxvp6877brTo9ZfNqq8l0MbG75MLS9uDkfKYCA0UvXWEG3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQQEAQMCAAoMQEIPAAAAAAAG';

/** What a watch can follow: the subject kinds whose GET scan gives its verdict. */
export const WATCH_KINDS = ['token', 'pumpfun', 'wallet', 'program'] as const;
/** A watch lasts at most a week: long enough for a position, short enough to be re-bought knowingly. */
export const MAX_WATCH_HOURS = 168;

const BASE58_ADDRESS_PATTERN = '^[1-9A-HJ-NP-Za-km-z]{32,44}$';

export const PAID_ENDPOINTS = [
  {
    id: 'pumpfun',
    method: 'GET',
    operationId: 'scanPumpfunToken',
    path: '/scan/pumpfun/{mint}',
    param: {
      name: 'mint',
      kind: 'address',
      description: 'Base58 mint address of a token launched on pump.fun.',
      example: '3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump',
    },
    priceUsd: 0.5,
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
    param: {
      name: 'mint',
      kind: 'address',
      description: 'Base58 mint address of an SPL Token or Token-2022 token.',
      example: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    },
    priceUsd: 0.3,
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
    param: {
      name: 'address',
      kind: 'address',
      description: 'Base58 address of a wallet.',
      example: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    },
    priceUsd: 0.02,
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
    param: {
      name: 'signature',
      kind: 'signature',
      description: 'Base58 transaction signature (64 bytes).',
      example: '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v',
    },
    priceUsd: 0.05,
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
    param: {
      name: 'id',
      kind: 'address',
      description: 'Base58 program id.',
      example: 'MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD',
    },
    priceUsd: 1,
    cacheTtlSeconds: 600,
    summary: 'Risk scan of a program',
    description:
      'Upgrade authority (none, single key, multisig), last deploy and recent upgrades of a program.',
    assesses: ['upgrade authority', 'recent upgrades'],
  },
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
      schema: {
        type: 'object',
        description: 'The transaction to simulate, as a wallet would be asked to sign it.',
        properties: {
          transaction: {
            type: 'string',
            contentEncoding: 'base64',
            maxLength: 1644,
            description:
              'Base64 of the wire transaction (legacy or v0, signed or not; at most 1232 bytes). Address lookup tables are resolved; the blockhash is replaced, signatures are not checked.',
            examples: [SIMULATE_EXAMPLE_TX],
          },
        },
        required: ['transaction'],
        additionalProperties: false,
      },
      example: { transaction: SIMULATE_EXAMPLE_TX },
    },
    priceUsd: 0.05,
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
      schema: {
        type: 'object',
        description:
          'What to watch, where to send alerts and for how long. The price is hours × the price per hour.',
        properties: {
          kind: {
            type: 'string',
            enum: [...WATCH_KINDS],
            description: 'What the subject is: the GET scan of that kind gives the verdict watched.',
          },
          subject: {
            type: 'string',
            pattern: BASE58_ADDRESS_PATTERN,
            description: 'Base58 address of the subject (a mint, a wallet or a program id).',
            examples: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
          },
          webhook: {
            type: 'string',
            format: 'uri',
            maxLength: 2048,
            description:
              'https URL alerts are POSTed to (Standard Webhooks). It must resolve to a public address.',
            examples: ['https://example.com/hooks/risk-scan'],
          },
          hours: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_WATCH_HOURS,
            description: `How long to watch, in hours (1 to ${MAX_WATCH_HOURS}).`,
            examples: [24],
          },
        },
        required: ['kind', 'subject', 'webhook', 'hours'],
        additionalProperties: false,
      },
      example: {
        kind: 'token',
        subject: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
        webhook: 'https://example.com/hooks/risk-scan',
        hours: 24,
      },
    },
    // A watch re-assesses its subject for hours: priced per hour, far below a scan per check.
    priceUsdPerHour: 0.01,
    // The baseline is a fresh scan: never served from the cache.
    cacheTtlSeconds: 0,
    summary: 'Watch a subject: a signed alert when its risk changes',
    description:
      "Follows a token, pump.fun token, wallet or program for 1 to 168 hours and POSTs a signed alert (Standard Webhooks, Ed25519 v1a and the watch's own v1 secret) to your webhook when its flags or risk score change. The answer gives the watch id (the only key to read or cancel it), its expiry, the baseline ScanResult and how deliveries are signed.",
    assesses: ['flag changes', 'risk score changes', 'webhook alerts'],
  },
] as const satisfies readonly PaidEndpoint[];

export type EndpointId = (typeof PAID_ENDPOINTS)[number]['id'];
/** The endpoints a scanner answers: every one but the watches' door, which runs the scan of its kind. */
export type ScanId = 'pumpfun' | 'token' | 'wallet' | 'tx' | 'program' | 'simulate';

export const isGetEndpoint = (e: PaidEndpoint): e is GetEndpoint => e.method === 'GET';

/** The contract's five GET endpoints, in its order. */
export const GET_ENDPOINTS: readonly GetEndpoint[] = (PAID_ENDPOINTS as readonly PaidEndpoint[]).filter(
  isGetEndpoint,
);

/** The endpoints a scanner answers (all but the watches' door). */
export const SCAN_ENDPOINTS = (PAID_ENDPOINTS as readonly PaidEndpoint[]).filter(
  (e): e is PaidEndpoint & { readonly id: ScanId } => e.id !== 'watch',
);

/** The endpoints that take a JSON body. */
export const POST_ENDPOINTS: readonly PostEndpoint[] = (PAID_ENDPOINTS as readonly PaidEndpoint[]).filter(
  (e): e is PostEndpoint => e.method === 'POST',
);

/** Decimal places of USDC, the payment asset. */
export const USDC_DECIMALS = 6;

/** Price in USDC atomic units as the decimal string x402 carries (0.50 → "500000"). */
export function atomicPrice(priceUsd: number): string {
  return String(Math.round(priceUsd * 10 ** USDC_DECIMALS));
}

/** '/scan/token/{mint}' → '/scan/token/:mint' (Hono's syntax). */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** '/scan/token/{mint}' with a value → '/scan/token/<value>'. */
export function concretePath(endpoint: GetEndpoint, value: string): string {
  return endpoint.path.replace(`{${endpoint.param.name}}`, value);
}

/** The price an endpoint lists: per call, or per hour for an endpoint sold by the hour. */
export function listedPrice(endpoint: PaidEndpoint): { readonly usd: number; readonly per: 'call' | 'hour' } {
  return endpoint.priceUsdPerHour === undefined
    ? { usd: endpoint.priceUsd, per: 'call' }
    : { usd: endpoint.priceUsdPerHour, per: 'hour' };
}

/** '0.30 USDC per call', '0.01 USDC per hour'. */
export function priceText(endpoint: PaidEndpoint): string {
  const { usd, per } = listedPrice(endpoint);
  return `${usd.toFixed(2)} USDC per ${per}`;
}

/** The least and most one purchase costs: the price per call twice, or 1 hour and the longest watch. */
export function priceRange(endpoint: PaidEndpoint): { readonly min: number; readonly max: number } {
  return { min: orderPriceUsd(endpoint, 1), max: orderPriceUsd(endpoint, MAX_WATCH_HOURS) };
}

/** What one purchase costs in USD: the price per call, or `hours` × the price per hour. */
export function orderPriceUsd(endpoint: PaidEndpoint, hours = 1): number {
  const { usd, per } = listedPrice(endpoint);
  // Rounded to USDC's atomic unit, so 0.01 × 3 is 0.03 and not 0.030000000000000002.
  return per === 'call' ? usd : Math.round(usd * hours * 10 ** USDC_DECIMALS) / 10 ** USDC_DECIMALS;
}
