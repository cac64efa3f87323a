/**
 * Every reason the service gives for a 402, and for every error it answers (400, 404, 405, 408,
 * 414, 431, 500, 503): a code and its message template, in one table, the way `@solana/kit` keeps
 * its error codes. Code decides and tests compare codes; the message is only what a caller reads.
 * The README's list of reasons is generated from this table (scripts/render-reason-docs.ts).
 *
 * A message is the exact text on the wire (a 402's `error`, an error body's `message`): where
 * it starts with a word such as `payment_used:`, clients read that word, so it stays. `{name}`
 * marks a value filled in per call. Every body names its code in a field of its own, `reason`:
 * the 402 body (and the v2 PAYMENT-REQUIRED header's object) as every error body.
 */

/** The HTTP status a reason goes with, and for a status other than 402 its body's `error`. */
type ReasonEntry =
  | { readonly status: 402; readonly message: string }
  | { readonly status: 400; readonly error: 'invalid_input' | 'bad_request'; readonly message: string }
  | { readonly status: 404; readonly error: 'not_found'; readonly message: string }
  | { readonly status: 405; readonly error: 'method_not_allowed'; readonly message: string }
  | { readonly status: 408; readonly error: 'request_timeout'; readonly message: string }
  | { readonly status: 414; readonly error: 'uri_too_long'; readonly message: string }
  | { readonly status: 431; readonly error: 'headers_too_large'; readonly message: string }
  | { readonly status: 500; readonly error: 'scan_failed' | 'internal_error'; readonly message: string }
  | { readonly status: 503; readonly error: 'service_unavailable'; readonly message: string };

export const REASONS = {
  // 402 without a payment, or before one can be taken: the offer says how to pay.
  payment_required: {
    status: 402,
    message:
      'Payment required: {usd} USDC on Solana mainnet per call, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE header)',
  },
  payment_required_order: {
    status: 402,
    message:
      'Payment required{total} ({usd} USDC per {per}) on Solana mainnet, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE header)',
  },
  payment_unavailable: { status: 402, message: 'Payment cannot be taken right now: {why}' },
  // 402, at the door: the payment is not touched.
  payment_with_head: {
    status: 402,
    message:
      'A payment is taken only with GET: a HEAD answer has no body to deliver the result in. Nothing was charged; send this payment with GET.',
  },
  payment_at_template: {
    status: 402,
    message:
      "{path} is the endpoint's template, not a subject to scan: a payment is never taken here, and this one was not used. Send it with a real {name} in the path.",
  },
  not_taking_payments: { status: 402, message: 'This server is not taking payments yet' },
  payment_meta_malformed: {
    status: 402,
    message: '_meta["{key}"] must be an x402 PaymentPayload object; nothing was charged',
  },
  // 402, the payment read and held to the offer before any network call: never claimed.
  endpoint_unavailable: {
    status: 402,
    message: '{path} cannot deliver results in this build; nothing was charged',
  },
  header_too_large: { status: 402, message: 'payment header is larger than {bytes} bytes' },
  header_not_base64_json: { status: 402, message: 'payment header is not base64-encoded JSON' },
  version_unsupported: { status: 402, message: 'unsupported x402Version {version}; use 1 or 2' },
  payload_malformed: { status: 402, message: 'payment payload is malformed: {path} {problem}' },
  scheme_not_accepted: { status: 402, message: 'scheme "{scheme}" is not accepted; pay with "exact"' },
  network_not_accepted: {
    status: 402,
    message: 'network "{network}" is not accepted; pay on Solana mainnet (solana-mainnet)',
  },
  amount_not_price: { status: 402, message: 'accepted amount {amount} is not the price {price}' },
  asset_not_usdc: { status: 402, message: 'asset {asset} is not USDC' },
  pay_to_not_ours: { status: 402, message: "payTo {payTo} is not this service's" },
  fee_payer_unmanaged: { status: 402, message: 'no facilitator manages the fee payer this payment names' },
  transaction_undecodable: { status: 402, message: 'the payment transaction cannot be decoded' },
  transaction_version: { status: 402, message: 'payment transactions must be legacy or version 0' },
  transaction_lookup_tables: {
    status: 402,
    message: 'payment transactions may not use address lookup tables',
  },
  transaction_no_fee_payer: { status: 402, message: 'the payment transaction has no fee payer' },
  fee_payer_not_ours: {
    status: 402,
    message: "fee payer {feePayer} is not one of this service's facilitators",
  },
  account_missing: {
    status: 402,
    message: 'an instruction names an account the transaction does not have',
  },
  program_unexpected: {
    status: 402,
    message: 'the payment transaction calls an unexpected program {program}',
  },
  compute_budget_empty: { status: 402, message: 'a ComputeBudget instruction has no data' },
  compute_budget_not_allowed: {
    status: 402,
    message:
      'ComputeBudget {instruction} is not allowed in a payment; only SetComputeUnitLimit and SetComputeUnitPrice are',
  },
  compute_budget_malformed: { status: 402, message: 'the {instruction} instruction is malformed' },
  compute_budget_repeated: {
    status: 402,
    message: 'the payment transaction has more than one {instruction} instruction',
  },
  compute_price_too_high: {
    status: 402,
    message:
      "the compute-unit price {price} micro-lamports is above this service's limit of {max}; build the payment with a lower priority fee",
  },
  compute_limit_too_high: {
    status: 402,
    message:
      "the compute-unit limit {limit} is above this service's limit of {max}; build the payment with a lower compute-unit limit",
  },
  compute_limit_missing: {
    status: 402,
    message:
      'the payment sets a compute-unit price but no compute-unit limit; add a SetComputeUnitLimit of at most {max}',
  },
  token_instruction_not_transfer: {
    status: 402,
    message: 'the only token instruction allowed is TransferChecked',
  },
  transfer_accounts_missing: { status: 402, message: 'TransferChecked is missing accounts' },
  transfer_count: { status: 402, message: 'expected exactly one TransferChecked, found {count}' },
  transfer_asset: { status: 402, message: 'the transfer is of {mint}, not the payment asset {asset}' },
  transfer_destination: { status: 402, message: 'the transfer does not go to the payTo wallet' },
  transfer_amount: { status: 402, message: 'the transfer is {amount} atomic units; the price is {price}' },
  fee_payer_pays: { status: 402, message: 'the facilitator fee payer may not be the one paying' },
  signature_missing: { status: 402, message: 'the transaction is not signed by {signer}' },
  signature_invalid: { status: 402, message: 'the signature of {signer} is invalid' },
  // 402, at the claim: the payment is held by, or was sold to, another request.
  payment_in_use: { status: 402, message: 'payment_in_use: this payment is already being processed' },
  payment_rechecked_elsewhere: {
    status: 402,
    message: 'payment_in_use: this payment is being processed by another request',
  },
  payment_taken_over: {
    status: 402,
    message: 'payment_in_use: this payment was taken over by another request',
  },
  payment_paid_for_another: {
    status: 402,
    message:
      'payment_used: this payment already paid for {path}; repeat that request with it to receive that result, or pay anew for this one',
  },
  payment_settling_for_another: {
    status: 402,
    message:
      'payment_used: this payment is being settled for {path}; repeat that request with it to receive that result, or pay anew for this one',
  },
  payment_settled_elsewhere: {
    status: 402,
    message:
      'payment_used: this payment was settled by another request, not by this one; it buys nothing more here. Pay anew for this result',
  },
  // 402, from the facilitator and the chain.
  verify_unavailable: {
    status: 402,
    message: 'the facilitator could not verify the payment ({detail}); nothing was charged',
  },
  payment_refused: { status: 402, message: 'payment refused: {facilitatorReason}' },
  settlement_failed: { status: 402, message: 'settlement failed: {detail}; nothing was charged' },
  payment_not_landed: { status: 402, message: 'the payment did not land; nothing was charged' },
  settlement_unconfirmed: {
    status: 402,
    message:
      'settlement_unconfirmed: the payment has not landed yet; repeat this request with the same payment to receive the result once it does',
  },
  sale_unrecorded: {
    status: 402,
    message:
      'settlement_unconfirmed: the payment landed, but its record could not be written yet; repeat this request with the same payment to receive the result',
  },
  // 400, before any payment is asked for or touched: a path parameter (or a body's address).
  base58_empty: { status: 400, error: 'invalid_input', message: '{name} must be {what}; it is empty' },
  base58_alphabet: {
    status: 400,
    error: 'invalid_input',
    message:
      '{name} must be {what}; it contains characters outside the base58 alphabet (0, O, I and l are not base58)',
  },
  base58_length: {
    status: 400,
    error: 'invalid_input',
    message: '{name} must be {what}; it does not decode to {bytes} bytes',
  },
  parameter_missing: { status: 400, error: 'invalid_input', message: '{parameter} is missing from the path' },
  // 400: a POST body.
  body_too_large: { status: 400, error: 'invalid_input', message: 'the body is over {bytes} bytes{why}' },
  body_not_json: { status: 400, error: 'invalid_input', message: 'the body must be JSON: {shape}' },
  body_not_object: {
    status: 400,
    error: 'invalid_input',
    message: 'the body must be a JSON object: {shape}',
  },
  body_fields_invalid: { status: 400, error: 'invalid_input', message: '{problems}' },
  body_fields_unknown: {
    status: 400,
    error: 'invalid_input',
    message: 'the body has unknown field(s): {fields}',
  },
  transaction_missing: {
    status: 400,
    error: 'invalid_input',
    message: '{field} must be a non-empty base64 string',
  },
  transaction_not_base64: {
    status: 400,
    error: 'invalid_input',
    message: '{field} is not base64 (standard alphabet, padded)',
  },
  transaction_too_large: {
    status: 400,
    error: 'invalid_input',
    message: '{field} is {bytes} bytes; a transaction is at most {max} bytes',
  },
  transaction_malformed: {
    status: 400,
    error: 'invalid_input',
    message: '{field} is not a transaction: {problem}',
  },
  webhook_refused: { status: 400, error: 'invalid_input', message: '{problem}; nothing was charged' },
  // 400: a batch's body (POST /scan/batch), naming the items at fault.
  batch_kind_unknown: {
    status: 400,
    error: 'invalid_input',
    message: 'kind must be one of {kinds}; it is {kind}',
  },
  batch_size: {
    status: 400,
    error: 'invalid_input',
    message: 'subjects must hold 1 to {most} addresses; it holds {count}',
  },
  batch_subjects_invalid: {
    status: 400,
    error: 'invalid_input',
    message: '{count} of the subjects cannot be scanned: {problems}',
  },
  // 400, before the app: a request that cannot be read as one.
  http_unparsable: { status: 400, error: 'bad_request', message: 'The request could not be parsed as HTTP' },
  host_missing: {
    status: 400,
    error: 'bad_request',
    message: 'An HTTP/1.1 request must carry a Host header',
  },
  host_invalid: { status: 400, error: 'bad_request', message: 'The Host header is not a valid host name' },
  host_too_long: {
    status: 400,
    error: 'bad_request',
    message: 'The Host header is longer than {max} characters, more than any host name',
  },
  path_backslash: { status: 400, error: 'bad_request', message: 'The request path contains a backslash' },
  target_not_absolute: {
    status: 400,
    error: 'bad_request',
    message: 'The request target is not a valid absolute URL',
  },
  target_not_path: {
    status: 400,
    error: 'bad_request',
    message: 'The request target is not a valid path (it must start with "/")',
  },
  // 404, 405, 408, 414, 431: what HTTP itself refuses.
  endpoint_not_found: { status: 404, error: 'not_found', message: 'No such endpoint: {method} {path}' },
  watch_not_found: { status: 404, error: 'not_found', message: 'No watch has this id.' },
  docs_asset_not_found: { status: 404, error: 'not_found', message: 'No such docs asset: {name}' },
  method_not_allowed: {
    status: 405,
    error: 'method_not_allowed',
    message: '{method} is not allowed here; use {allowed}',
  },
  connect_not_supported: {
    status: 405,
    error: 'method_not_allowed',
    message: 'CONNECT is not supported: every endpoint is GET',
  },
  request_timeout: { status: 408, error: 'request_timeout', message: 'The request was not received in time' },
  uri_too_long: {
    status: 414,
    error: 'uri_too_long',
    message: 'The request URL (path and query) is longer than {max} characters',
  },
  headers_too_large: {
    status: 431,
    error: 'headers_too_large',
    message: 'Request headers exceed {bytes} bytes',
  },
  // 500: nothing was settled.
  scan_failed: {
    status: 500,
    error: 'scan_failed',
    message: 'The scan could not be completed; the payment was not settled and can be used again.',
  },
  batch_failed: {
    status: 500,
    error: 'scan_failed',
    message:
      'The batch could not be completed ({items} could not be scanned); the payment was not settled and can be used again.',
  },
  store_unwritable: {
    status: 500,
    error: 'internal_error',
    message: 'The payment record could not be written; the payment was not settled and nothing was charged.',
  },
  store_unreadable: {
    status: 500,
    error: 'internal_error',
    message:
      'The payment record could not be read, so this request did not use the payment: present the same payment again shortly.',
  },
  unexpected_error: {
    status: 500,
    error: 'internal_error',
    message: 'The service hit an unexpected error; nothing was charged.',
  },
  // 503: refused before the payment was used (it stays valid), or settled and not yet fulfilled.
  inflight: {
    status: 503,
    error: 'service_unavailable',
    message:
      'The service is handling as many paid calls as it can; this request did not use your payment, which stays valid: send it again after {seconds} s.',
  },
  event_loop: {
    status: 503,
    error: 'service_unavailable',
    message:
      'The service is overloaded; this request did not use your payment, which stays valid: send it again after {seconds} s.',
  },
  shutting_down: {
    status: 503,
    error: 'service_unavailable',
    message:
      'This instance is shutting down; this request did not use your payment, which stays valid: send it again after {seconds} s.',
  },
  check_unavailable: {
    status: 503,
    error: 'service_unavailable',
    message: 'This order could not be checked before payment; nothing was charged. Try again in {seconds} s.',
  },
  webhook_check_timeout: {
    status: 503,
    error: 'service_unavailable',
    message:
      "The webhook's host could not be resolved within {seconds} s; nothing was charged. Try again in {seconds} s.",
  },
  busy: {
    status: 503,
    error: 'service_unavailable',
    message:
      'Too many watch orders are being checked at once; nothing was charged. Try again in {seconds} s.',
  },
  subject_full: {
    status: 503,
    error: 'service_unavailable',
    message:
      'This subject has as many active watches as the service takes on one subject; nothing was charged. Try again after {seconds} s, as watches expire or are cancelled.',
  },
  service_full: {
    status: 503,
    error: 'service_unavailable',
    message:
      'The service is following as many watches as it can; nothing was charged. Try again after {seconds} s, as watches expire or are cancelled.',
  },
  result_not_handed_over: {
    status: 503,
    error: 'service_unavailable',
    message:
      'Your payment settled, but what it bought could not be handed over yet. Send the same request with the same payment again: it gives this result without paying twice.',
  },
  watch_not_started: {
    status: 503,
    error: 'service_unavailable',
    message:
      'Your payment settled, but the watch could not be started yet ({why}). Send the same request with the same payment again: it gives this watch, with the same id, without paying twice.',
  },
} as const satisfies Record<string, ReasonEntry>;

export type ReasonCode = keyof typeof REASONS;

/** The codes of one status: `CodeOf<402>` are the reasons a payment buys nothing (now). */
export type CodeOf<S extends ReasonEntry['status']> = {
  [C in ReasonCode]: (typeof REASONS)[C]['status'] extends S ? C : never;
}[ReasonCode];

/** The `{name}`s of a template. */
type Placeholders<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** The values a code's message needs, by name. */
export type ReasonVars<C extends ReasonCode> = Readonly<
  Record<Placeholders<(typeof REASONS)[C]['message']>, string | number>
>;

/** No argument for a message without `{name}`s, the values for one with them. */
export type VarsArg<C extends ReasonCode> = [Placeholders<(typeof REASONS)[C]['message']>] extends [never]
  ? []
  : [vars: ReasonVars<C>];

/** A reason as given: its code, and its message with the values filled in. */
export interface Reason<C extends ReasonCode = ReasonCode> {
  readonly code: C;
  readonly text: string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The message of `code`, its `{name}`s replaced by the values given (each filled in once, never re-read). */
export function reasonText<C extends ReasonCode>(code: C, ...vars: VarsArg<C>): string {
  const values: Readonly<Record<string, string | number>> = vars[0] ?? {};
  return REASONS[code].message.replace(PLACEHOLDER, (_, name: string) => String(values[name]));
}

export function reason<C extends ReasonCode>(code: C, ...vars: VarsArg<C>): Reason<C> {
  return { code, text: reasonText(code, ...vars) };
}
