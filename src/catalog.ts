/**
 * The one table every paid endpoint is generated from: routes, input validation, prices,
 * 402 offers, OpenAPI, discovery documents and tests all read it. Nothing else repeats a
 * path or a price.
 */

/** What a path parameter must decode to: a 32-byte address or a 64-byte signature. */
export type ParamKind = 'address' | 'signature';

export interface PaidEndpoint {
  /** Stable id, also the scanner's folder name. */
  readonly id: 'pumpfun' | 'token' | 'wallet' | 'tx' | 'program';
  /** OpenAPI operationId. */
  readonly operationId: string;
  /** OpenAPI-style path with one `{param}`. */
  readonly path: string;
  readonly param: {
    readonly name: string;
    readonly kind: ParamKind;
    readonly description: string;
    readonly example: string;
  };
  /** Price per call in USD, paid in USDC. */
  readonly priceUsd: number;
  /** How long a result may be served from the cache. */
  readonly cacheTtlSeconds: number;
  readonly summary: string;
  readonly description: string;
  /** What the scan looks at, for discovery documents. */
  readonly assesses: readonly string[];
}

export const PAID_ENDPOINTS = [
  {
    id: 'pumpfun',
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
] as const satisfies readonly PaidEndpoint[];

export type EndpointId = (typeof PAID_ENDPOINTS)[number]['id'];

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
export function concretePath(endpoint: PaidEndpoint, value: string): string {
  return endpoint.path.replace(`{${endpoint.param.name}}`, value);
}
