/**
 * `risk-scan call` and `risk-scan mcp` pay through the client package (@solana-risk-scan/client):
 * this is only where their API, RPC and payer come from (the options, else the running sandbox's
 * manifest) and how its lines name their own options. The payment itself, the pinned offer, the
 * cap, the payer's funds and the result's signature are the package's.
 */
import {
  CAIP2_MAINNET,
  type CallOutcome,
  type FailureHints,
  payForCall,
  ResultVerifier,
  RiskScanError,
  USDC_MAINNET,
} from '@solana-risk-scan/client';
import { callFailures } from './failures.js';
import { readKeypairFile } from './keypair-file.js';
import { readManifest, type SandboxManifest } from './sandbox-manifest.js';

export type { CallOutcome };

export interface CallOptions {
  readonly path: string;
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  /** The service's payee (--pay-to): a 402 naming another is refused. Unset: the 402's own. */
  readonly payTo?: string;
  readonly maxUsd: number;
  readonly sandboxDir: string;
  /** Longest wait for each answer (API or RPC), in seconds. */
  readonly timeoutS: number;
  /** A JSON body: the call is then a POST (e.g. /simulate/tx), the same body paid and unpaid. */
  readonly data?: string;
  /** Told the price just before the signed payment is sent: from then on it may settle. A throw here stops it unsent. */
  readonly onPaymentSent?: (priceUsd: number) => void;
}

/** What to do about an empty payer: in the sandbox, its own test payer or a restart. */
function howToGetMore(sandbox: SandboxManifest | null) {
  return (payer: string, price: string): string => {
    if (sandbox === null)
      return `Send at least ${price} USDC to ${payer} on Solana mainnet, or pass --keypair FILE of a funded payer.`;
    if (sandbox.payer?.address === payer)
      return 'The sandbox has no USDC faucet: restart it (npm start), and it funds a new test payer with 1000 test USDC.';
    return `The sandbox has no USDC faucet: pay with its funded test payer (leave out --keypair; it is ${sandbox.payer?.keypair ?? 'payer.json in SANDBOX_DIR'}).`;
  };
}

/** The command line's words for what the package's lines tell the caller to change. */
const cliHints = (sandbox: SandboxManifest | null): FailureHints => ({
  otherRpc: 'Pass --rpc URL',
  rpcWhere: " (the sandbox's is rpcUrl in sandbox.json)",
  timeout: '--timeout SECONDS',
  callCap: '--max-usd',
  howToGetMore: howToGetMore(sandbox),
});

/** The verifier of each API's results, made once per API: its key set is read once. */
const verifiers = new Map<string, ResultVerifier>();
function verifierOf(api: string): ResultVerifier {
  const jwksUrl = new URL('/.well-known/jwks.json', api).href;
  const known = verifiers.get(jwksUrl);
  if (known !== undefined) return known;
  const verifier = new ResultVerifier(jwksUrl, undefined);
  verifiers.set(jwksUrl, verifier);
  return verifier;
}

export async function payAndCall(options: CallOptions): Promise<CallOutcome> {
  const found = await readManifest(options.sandboxDir);
  const defaults = found?.manifest ?? {};
  const api = options.api ?? defaults.apiUrl;
  const rpcUrl = options.rpc ?? defaults.rpcUrl;
  const keypairPath = options.keypair ?? defaults.payer?.keypair;
  if (!api) throw callFailures.noApi();
  if (!rpcUrl) throw callFailures.noRpc();
  if (!keypairPath) throw callFailures.noKeypair();
  if (!options.path.startsWith('/')) throw callFailures.badPath();
  if (!URL.canParse(api))
    throw callFailures.badOption(`--api ${api} is not a URL (e.g. http://127.0.0.1:8402).`);
  if (!URL.canParse(rpcUrl))
    throw callFailures.badOption(`--rpc ${rpcUrl} is not a URL (e.g. http://127.0.0.1:8899).`);
  const signer = await readKeypairFile(keypairPath);
  const apiFrom = options.api === undefined && found !== null ? found.path : null;
  // The sandbox's manifest speaks for the API only when the API is the sandbox's.
  const sandbox =
    found !== null && defaults.apiUrl !== undefined && new URL(defaults.apiUrl).origin === new URL(api).origin
      ? defaults
      : null;
  const request = { api, path: options.path, ...(options.data === undefined ? {} : { data: options.data }) };
  try {
    return await payForCall(request, {
      rpcUrl,
      signer,
      pin: { payTo: options.payTo ?? null, asset: USDC_MAINNET, network: CAIP2_MAINNET },
      maxPerCallUsd: options.maxUsd,
      timeoutS: options.timeoutS,
      verifier: verifierOf(api),
      hints: cliHints(sandbox),
      ...(options.onPaymentSent === undefined ? {} : { onPaymentSent: options.onPaymentSent }),
    });
  } catch (e) {
    // An API not reached before paying is worded with where its URL came from.
    if (e instanceof RiskScanError && e.code === 'api_unreachable' && !e.paid)
      throw callFailures.apiUnreachable(api, e.cause, options.timeoutS, apiFrom);
    throw e;
  }
}
