/**
 * One paid call of the API with x402, the one payment path of this package (RiskScanClient,
 * `risk-scan call` and `risk-scan mcp` all pay through it): the probe, the 402's offer read and
 * held to the pinned offer and the catalog's price, the per-call cap, the caller's budget and the
 * payer's funds checked before anything is signed; then the paid request, and the result's
 * signature checked before it is returned.
 *
 * Each step that can fail ends in a RiskScanError whose one line says what to do; every request
 * is bounded by the call's timeout.
 */
import type { TransactionPartialSigner } from '@solana/kit';
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { decodePaymentResponseHeader, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { catalogUnits } from './catalog.js';
import { CLIENT_HINTS, type FailureHints, type PayFailures, payFailures, RiskScanError } from './errors.js';
import { checkFunds } from './funds.js';
import { isTimeout } from './network-errors.js';
import { checkPinned, type PinnedOffer, payableOffer } from './offer.js';
import type { ResultVerifier } from './result-signature.js';

/** USDC has 6 decimals: the offer's amount is in its units. */
const USDC_UNITS = 1e6;

export interface PayRequest {
  /** The API's origin, e.g. http://127.0.0.1:8402. */
  readonly api: string;
  /** The path and query, starting with '/'. */
  readonly path: string;
  /** A JSON body: the call is then a POST (e.g. /simulate/tx), the same body paid and unpaid. */
  readonly data?: string;
}

export interface PayOptions {
  readonly rpcUrl: string;
  readonly signer: TransactionPartialSigner;
  readonly pin: PinnedOffer;
  readonly maxPerCallUsd: number;
  /** Longest wait for each answer (API or RPC), in seconds. */
  readonly timeoutS: number;
  /** Checks each 200's signature; null takes results unchecked (never the client's choice). */
  readonly verifier: ResultVerifier | null;
  readonly hints?: FailureHints;
  readonly fetch?: typeof fetch;
  /**
   * Told the price just before the signed payment is sent: from then on it may settle. A throw
   * here stops it unsent (a budget that cannot cover it).
   */
  readonly onPaymentSent?: (priceUsd: number) => void;
}

export interface CallOutcome {
  readonly status: number;
  /** What this call paid: the price when the API answered 200, else null. */
  readonly paidUsd: number | null;
  /** The price of the payment sent, or null when none was sent. */
  readonly sentUsd: number | null;
  /** The decoded PAYMENT-RESPONSE (settlement receipt), when the API gave one. */
  readonly settlement: { transaction?: string; network?: string; [k: string]: unknown } | null;
  readonly body: unknown;
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

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

const parseJson = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
};

/** The 402's offer this client will pay, checked against the pin, the catalog and the cap. */
function offerToPay(
  request: PayRequest,
  probe: Response,
  probeBody: unknown,
  options: PayOptions,
  failures: PayFailures,
): { required: PaymentRequired; offer: PaymentRequirements; priceUsd: number } {
  const header = probe.headers.get('payment-required');
  if (!header) throw failures.noAnswerForPayment(request.api, probe.status);
  let required: PaymentRequired;
  try {
    required = decodePaymentRequiredHeader(header);
  } catch {
    throw failures.unpayable('its PAYMENT-REQUIRED header cannot be decoded');
  }
  const offer = payableOffer(required, probeBody, options.pin.network, failures);
  const method = request.data === undefined ? 'GET' : 'POST';
  checkPinned(offer, options.pin, catalogUnits(method, request.path, request.data), failures);
  const priceUsd = Number(offer.amount) / USDC_UNITS;
  if (!(priceUsd <= options.maxPerCallUsd)) throw failures.overCallCap(priceUsd, options.maxPerCallUsd);
  return { required, offer, priceUsd };
}

/** The signed payment's headers; the RPC builds it (recent blockhash, the mint's program). */
async function paymentHeaders(
  required: PaymentRequired,
  offer: PaymentRequirements,
  options: PayOptions,
  failures: PayFailures,
): Promise<Record<string, string>> {
  const { rpcUrl, timeoutS } = options;
  const scheme = new ExactSvmScheme(options.signer, { rpcUrl });
  const client = new x402Client().register(options.pin.network as `${string}:${string}`, scheme);
  const payload = await withTimeout(
    client.createPaymentPayload({ ...required, accepts: [offer] }),
    timeoutS * 1000,
  ).catch((e: unknown) => {
    throw isTimeout(e)
      ? failures.rpcUnreachable(rpcUrl, e, timeoutS)
      : failures.rpcRefused(
          rpcUrl,
          `the payment could not be built (${e instanceof Error ? e.message : String(e)})`,
          e,
        );
  });
  return new x402HTTPClient(client).encodePaymentSignatureHeader(payload);
}

/**
 * The settlement receipt as sent. One that cannot be decoded is kept as unreadable, never thrown:
 * the paid result it came with is still delivered, and a receipt was given (money moved).
 */
function readReceipt(header: string): NonNullable<CallOutcome['settlement']> {
  try {
    const decoded: unknown = decodePaymentResponseHeader(header);
    if (typeof decoded === 'object' && decoded !== null)
      return decoded as NonNullable<CallOutcome['settlement']>;
  } catch {}
  return { unreadable: header.slice(0, 200) };
}

/** Pays for one call; its outcome, or a RiskScanError. A 200 is returned only with a valid signature. */
export async function payForCall(request: PayRequest, options: PayOptions): Promise<CallOutcome> {
  const failures = payFailures(options.hints ?? CLIENT_HINTS);
  const doFetch = options.fetch ?? fetch;
  const { timeoutS } = options;
  const url = new URL(request.path, request.api).href;
  const probe = await doFetch(url, requestInit(request.data, {}, timeoutS)).catch((e: unknown) => {
    throw failures.apiUnreachable(request.api, e, timeoutS);
  });
  const probeBody = parseJson(new Uint8Array(await probe.arrayBuffer().catch(() => new ArrayBuffer(0))));
  if (probe.status !== 402)
    return { status: probe.status, paidUsd: null, sentUsd: null, settlement: null, body: probeBody };
  const { required, offer, priceUsd } = offerToPay(request, probe, probeBody, options, failures);
  const payer = options.signer.address;
  await checkFunds(options.rpcUrl, payer, offer, timeoutS, failures);
  await options.verifier?.ready(timeoutS);
  const headers = await paymentHeaders(required, offer, options, failures);
  options.onPaymentSent?.(priceUsd);
  const res = await doFetch(url, requestInit(request.data, headers, timeoutS)).catch((e: unknown) => {
    throw failures.paidCallLost(request.api, e, timeoutS);
  });
  const bytes = new Uint8Array(
    await res.arrayBuffer().catch((e: unknown) => {
      throw failures.paidCallLost(request.api, e, timeoutS);
    }),
  );
  const body = parseJson(bytes);
  if (res.status === 402) {
    const reason = (body as { error?: unknown } | null)?.error;
    throw failures.refused(typeof reason === 'string' ? reason : 'the API gave no reason', body);
  }
  const receipt = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  const settlement = receipt ? readReceipt(receipt) : null;
  if (res.status === 200)
    await options.verifier
      ?.check(bytes, res.headers.get('x-signature'), timeoutS)
      .catch((e: unknown) =>
        Promise.reject(withReceipt(e, settlement, body ?? new TextDecoder().decode(bytes))),
      );
  return {
    status: res.status,
    paidUsd: res.status === 200 ? priceUsd : null,
    sentUsd: priceUsd,
    settlement,
    body,
  };
}

/** A paid result refused after its payment keeps its receipt and body (as text when not JSON): what a refund is claimed with. */
function withReceipt(e: unknown, settlement: CallOutcome['settlement'], body: unknown): unknown {
  if (!(e instanceof RiskScanError) || settlement === null) return e;
  return new RiskScanError(e.code, e.message, { ...e.details, settlement, body });
}
