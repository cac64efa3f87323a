/**
 * Pays for one call of the API with x402: the probe, the offer read, the per-call cap and the
 * payer's funds checked before anything is signed, then the paid request. Shared by
 * `risk-scan call`, `risk-scan mcp` and anything else that pays; defaults to the running
 * sandbox's API, RPC and payer.
 *
 * Each step that can fail on its environment (the API, the RPC, the payer's funds, the offer,
 * the facilitator's verdict) ends in a WordedFailure whose one line says what to do; every request
 * is bounded by the call's timeout. Nothing is paid before the payer is known to hold the price.
 */
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { decodePaymentResponseHeader, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { errorMessage } from '../errors.js';
import { callFailures } from './failures.js';
import { checkFunds } from './funds.js';
import { readKeypairFile } from './keypair-file.js';
import { isTimeout } from './network-errors.js';
import { CAIP2_MAINNET, payableOffer } from './offer.js';
import { readManifest } from './sandbox-manifest.js';

/** USDC has 6 decimals; --max-usd compares against the offer's amount in its units. */
const USDC_UNITS = 1e6;

export interface CallOptions {
  readonly path: string;
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  readonly maxUsd: number;
  readonly sandboxDir: string;
  /** Longest wait for each answer (API or RPC), in seconds. */
  readonly timeoutS: number;
  /** A JSON body: the call is then a POST (e.g. /simulate/tx), the same body paid and unpaid. */
  readonly data?: string;
  /** Told the price just before the signed payment is sent: from then on it may settle. A throw here stops it unsent. */
  readonly onPaymentSent?: (priceUsd: number) => void;
}

/** GET, or a POST of `data` as JSON. */
function requestInit(
  data: string | undefined,
  headers: Record<string, string>,
  timeoutS: number,
): RequestInit {
  const signal = AbortSignal.timeout(timeoutS * 1000);
  if (data === undefined) return { headers, signal };
  return { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: data, signal };
}

export interface CallOutcome {
  readonly status: number;
  readonly paidUsd: number | null;
  readonly settlement: unknown;
  readonly body: unknown;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
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
  const payer = await readKeypairFile(keypairPath);
  const url = new URL(options.path, api).href;
  const timeoutS = options.timeoutS;
  const apiFrom = options.api === undefined && found !== null ? found.path : null;
  // The sandbox's manifest speaks for the API only when the API is the sandbox's.
  const sandbox =
    found !== null && defaults.apiUrl !== undefined && new URL(defaults.apiUrl).origin === new URL(api).origin
      ? defaults
      : null;

  const probe = await fetch(url, requestInit(options.data, {}, timeoutS)).catch((e: unknown) => {
    throw callFailures.apiUnreachable(api, e, timeoutS, apiFrom);
  });
  const probeBody: unknown = await probe.json().catch(() => null);
  if (probe.status !== 402) return { status: probe.status, paidUsd: null, settlement: null, body: probeBody };
  const header = probe.headers.get('payment-required');
  if (!header) throw callFailures.noAnswerForPayment(api, probe.status);
  let required: PaymentRequired;
  try {
    required = decodePaymentRequiredHeader(header);
  } catch {
    throw callFailures.unpayable('its PAYMENT-REQUIRED header cannot be decoded');
  }
  const offer = payableOffer(required, probeBody);
  const priceUsd = Number(offer.amount) / USDC_UNITS;
  if (!(priceUsd <= options.maxUsd)) throw callFailures.overBudget(priceUsd, options.maxUsd);
  await checkFunds(rpcUrl, payer, offer, sandbox, timeoutS);

  const client = new x402Client().register(CAIP2_MAINNET, new ExactSvmScheme(payer, { rpcUrl }));
  const payload = await withTimeout(
    client.createPaymentPayload({ ...required, accepts: [offer] }),
    timeoutS * 1000,
  ).catch((e: unknown) => {
    throw isTimeout(e)
      ? callFailures.rpcUnreachable(rpcUrl, e, timeoutS)
      : callFailures.rpcRefused(rpcUrl, `the payment could not be built (${errorMessage(e)})`, e);
  });
  const headers = new x402HTTPClient(client).encodePaymentSignatureHeader(payload);
  options.onPaymentSent?.(priceUsd);
  const res = await fetch(url, requestInit(options.data, headers, timeoutS)).catch((e: unknown) => {
    throw callFailures.paidCallLost(api, e, timeoutS);
  });
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 402) {
    const reason = (body as { error?: unknown } | null)?.error;
    throw callFailures.refused(typeof reason === 'string' ? reason : 'the API gave no reason');
  }
  const receipt = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  return {
    status: res.status,
    paidUsd: res.status === 200 ? priceUsd : null,
    settlement: receipt ? decodePaymentResponseHeader(receipt) : null,
    body,
  };
}
