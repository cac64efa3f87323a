/**
 * Every failure of the client is a RiskScanError: a `code` a program can switch on, one line a
 * person can act on, and `paid`, whether money may have moved (a payment was signed and sent).
 * The wording of each line lives here; `FailureHints` names the knobs to turn in the caller's own
 * terms (the client's options, or `risk-scan call`'s command line).
 */
import { isTimeout, networkReason } from './network-errors.js';

// `@solana-risk-scan/client/errors` is this module: what words a failure, without the payment libraries.
export { isTimeout, networkReason };

export type RiskScanErrorCode =
  /** The 402 names another payee than the pinned payTo. */
  | 'payee_mismatch'
  /** The 402 asks for another asset than the pinned one. */
  | 'asset_mismatch'
  /** The 402 offers no payment on the pinned network. */
  | 'network_mismatch'
  /** The 402 asks more than the catalog's price for this call. */
  | 'price_above_catalog'
  /** The price is over the per-call cap. */
  | 'over_call_cap'
  /** The price is past what the session budget has left. */
  | 'over_budget'
  /** The payer's token account cannot cover the price. */
  | 'insufficient_funds'
  /** The 402 cannot be paid by this client (no fee payer, no PAYMENT-REQUIRED, an amount that is no number). */
  | 'unpayable_offer'
  /** The result's X-Signature is not the published key's over the bytes received. */
  | 'bad_signature'
  /** A paid 200 without an X-Signature, or a result given without a payment asked. */
  | 'unsigned_result'
  /** The service's published key cannot be read. */
  | 'signing_key_unavailable'
  /** The API answered a status other than 200 (its error body in `body`). */
  | 'http_error'
  /** The API (or its facilitator) refused the payment: a 402 after paying. */
  | 'payment_refused'
  /** The API cannot be reached, or did not answer in time. */
  | 'api_unreachable'
  /** The Solana RPC cannot be reached or used: the payment could not be built. */
  | 'rpc_unavailable'
  /** An option the client was made with cannot be used (a budget that is no number, an apiUrl that is no URL). */
  | 'invalid_option';

/** `usage`: the caller asked for something it may change (a cap, a budget); `failed`: the environment failed it. */
export type FailureKind = 'usage' | 'failed';

export class RiskScanError extends Error {
  override readonly name = 'RiskScanError';
  constructor(
    readonly code: RiskScanErrorCode,
    message: string,
    readonly details: {
      /** Whether money may have moved: a payment was signed and sent before this failure. */
      readonly paid: boolean;
      readonly kind?: FailureKind;
      /** The HTTP status and body of an `http_error` or `payment_refused`. */
      readonly status?: number;
      readonly body?: unknown;
      readonly cause?: unknown;
      /**
       * The settlement receipt (decoded PAYMENT-RESPONSE) of a call paid for and then refused here
       * (a result whose signature fails): the settlement transaction to claim it with. `body` then
       * holds the result as received (its text when it is not JSON).
       */
      readonly settlement?: {
        readonly transaction?: string;
        readonly network?: string;
        readonly [k: string]: unknown;
      };
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
  get paid(): boolean {
    return this.details.paid;
  }
  get kind(): FailureKind {
    return this.details.kind ?? 'failed';
  }
  /**
   * The service's own code for why it answered so (its body's `reason`, e.g. `payment_paid_for_another` for
   * a `payment_refused`, `base58_length` for an `http_error`), when it named one.
   */
  get reason(): string | undefined {
    const body = this.details.body;
    const code =
      body !== null && typeof body === 'object' ? (body as { reason?: unknown }).reason : undefined;
    return typeof code === 'string' ? code : undefined;
  }
}

/** How a line names what the caller may change, in its own terms. */
export interface FailureHints {
  /** The sentence that points to another RPC, e.g. 'Pass --rpc URL'. */
  readonly otherRpc: string;
  /** Added to it when the RPC cannot be reached at all, e.g. " (the sandbox's is …)". */
  readonly rpcWhere: string;
  /** What waits longer, e.g. '--timeout SECONDS'. */
  readonly timeout: string;
  /** The per-call cap, e.g. '--max-usd'. */
  readonly callCap: string;
  /** How the payer gets more of the asset, one or more sentences. */
  howToGetMore(payer: string, price: string): string;
}

export const CLIENT_HINTS: FailureHints = {
  otherRpc: 'Give another rpcUrl',
  rpcWhere: '',
  timeout: 'a larger timeoutMs',
  callCap: 'maxPerCallUsd',
  howToGetMore: (payer, price) => `Send at least ${price} USDC to ${payer} on Solana mainnet.`,
};

const unpaid = (code: RiskScanErrorCode, message: string, cause?: unknown, kind: FailureKind = 'failed') =>
  new RiskScanError(code, message, { paid: false, kind, cause });

/** The failures of one paid call, worded with the caller's hints. */
export function payFailures(hints: FailureHints) {
  return {
    apiUnreachable: (url: string, cause: unknown, seconds: number) =>
      unpaid(
        'api_unreachable',
        isTimeout(cause)
          ? `The API at ${url} did not answer within ${seconds} s. Check that it runs there, or wait longer with ${hints.timeout}.`
          : `Cannot reach the API at ${url}: ${networkReason(cause)}. Check that the API runs there.`,
        cause,
      ),
    /** The paid request itself failed: the payment was signed and sent. */
    paidCallLost: (url: string, cause: unknown, seconds: number) =>
      new RiskScanError(
        'api_unreachable',
        isTimeout(cause)
          ? `The API at ${url} did not answer the paid call within ${seconds} s; the payment may still settle. Wait longer with ${hints.timeout}.`
          : `The API at ${url} failed during the paid call: ${networkReason(cause)}; the payment may still settle. Check the API, then try again.`,
        { paid: true, cause },
      ),
    rpcUnreachable: (url: string, cause: unknown, seconds: number) =>
      unpaid(
        'rpc_unavailable',
        isTimeout(cause)
          ? `The Solana RPC at ${url} did not answer within ${seconds} s. ${hints.otherRpc} with a responsive RPC, or wait longer with ${hints.timeout}. Nothing was paid.`
          : `Cannot reach the Solana RPC at ${url}: ${networkReason(cause)}. ${hints.otherRpc}${hints.rpcWhere}. Nothing was paid.`,
        cause,
      ),
    rpcRefused: (url: string, detail: string, cause?: unknown) =>
      unpaid(
        'rpc_unavailable',
        `The Solana RPC at ${url} could not be used: ${detail}. ${hints.otherRpc} with a Solana RPC of the API's network. Nothing was paid.`,
        cause,
      ),
    noAnswerForPayment: (url: string, status: number) =>
      unpaid(
        'unpayable_offer',
        `The API at ${url} answered 402 without a PAYMENT-REQUIRED header (HTTP ${status}): it does not take x402 v2 payments. Check the API's URL.`,
      ),
    /** The 402's offer cannot, or must not, be paid by this client; `why` says what is wrong. */
    unpayable: (why: string, code: RiskScanErrorCode = 'unpayable_offer') =>
      unpaid(code, `The API asks for a payment this client cannot make: ${why}. Nothing was paid.`),
    /** The 402 does not match the pinned offer: a tampered or misconfigured API. */
    notPinned: (code: RiskScanErrorCode, why: string) =>
      unpaid(code, `The API asks for a payment this client refuses: ${why}. Nothing was paid.`),
    overCallCap: (priceUsd: number, maxUsd: number) =>
      unpaid(
        'over_call_cap',
        `The call costs ${priceUsd} USDC, more than ${hints.callCap} ${maxUsd}; nothing was paid. Raise ${hints.callCap} to pay it.`,
        undefined,
        'usage',
      ),
    notEnoughUsdc: (payer: string, holds: string, price: string) =>
      unpaid(
        'insufficient_funds',
        `The payer ${payer} holds ${holds} USDC and this call costs ${price} USDC. ${hints.howToGetMore(payer, price)} Nothing was paid.`,
      ),
    refused: (reason: string, body: unknown) =>
      // The API's reason may say nothing was charged; the client cannot prove it, so it counts as spent.
      new RiskScanError('payment_refused', `The payment was refused: ${reason.replace(/\.$/, '')}.`, {
        paid: true,
        status: 402,
        body,
      }),
  };
}

export type PayFailures = ReturnType<typeof payFailures>;
