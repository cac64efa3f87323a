/**
 * RiskScanClient: typed, paid calls of every endpoint of the service, each held to a pinned
 * offer (payee, asset, network, the catalog's price), a per-call cap and a session budget
 * before anything is paid, and each result's signature checked before it is returned.
 */
import { isAddress, type TransactionPartialSigner } from '@solana/kit';
import { type BatchKind, catalogUnits, type EndpointId, pathOf } from './catalog.js';
import { RiskScanError } from './errors.js';
import { CAIP2_MAINNET, USDC_MAINNET } from './offer.js';
import { type CallOutcome, type PayOptions, type PayRequest, payForCall } from './pay.js';
import { type Ed25519Jwk, ResultVerifier } from './result-signature.js';
import { type Allowance, SessionBudget, usdcUnits } from './session-budget.js';
import type { BatchResult, Paid, ScanResult } from './types.js';

export interface RiskScanClientOptions {
  /** The API's origin, e.g. http://127.0.0.1:8402. */
  readonly apiUrl: string;
  /** The Solana RPC the payer's transaction is built against. */
  readonly rpcUrl: string;
  /** The payer (any @solana/kit signer: a keypair, a wallet adapted to it). */
  readonly signer: TransactionPartialSigner;
  /** The service's payee: a 402 naming another is refused, nothing paid. */
  readonly payTo: string;
  /** The pinned asset; default USDC's mint. */
  readonly asset?: string;
  /** The pinned CAIP-2 network; default Solana mainnet. */
  readonly network?: string;
  /** Most one call may cost, in USD; default 1.00. */
  readonly maxPerCallUsd?: number;
  /** Most all calls of this client may cost together, in USD; default 5.00. */
  readonly budgetUsd?: number;
  /** The pinned result-signing key; default: fetched once from {apiUrl}/.well-known/jwks.json. */
  readonly signingKey?: Ed25519Jwk;
  /** Longest wait for each answer (API or RPC); default 90 000. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

const MAX_PER_CALL_USD = 1;
const BUDGET_USD = 5;
const TIMEOUT_MS = 90_000;

/** The API's own error body: with no receipt, its status says nothing was charged. */
const isApiError = (body: unknown) =>
  typeof (body as { error?: unknown } | null)?.error === 'string' &&
  typeof (body as { message?: unknown } | null)?.message === 'string';

function httpError(outcome: CallOutcome): RiskScanError {
  const said = outcome.body as { error?: unknown; message?: unknown } | null;
  const detail = typeof said?.message === 'string' ? `: ${said.message}` : '';
  const charged = !(outcome.settlement === null && isApiError(outcome.body));
  return new RiskScanError('http_error', `The API answered HTTP ${outcome.status}${detail}`, {
    paid: outcome.sentUsd !== null && charged,
    status: outcome.status,
    body: outcome.body,
  });
}

/**
 * Every paid endpoint asks for payment first, so a result given without one did not come from
 * the service (a proxy or an impostor in between): it is never returned as a result.
 */
function unaskedResult(outcome: CallOutcome): RiskScanError {
  return new RiskScanError(
    'unsigned_result',
    'The API answered 200 without asking for payment: a paid endpoint always asks first, so the answer is not trusted. Nothing was paid.',
    { paid: false, status: outcome.status, body: outcome.body },
  );
}

const refuseOption = (name: string, why: string) =>
  new RiskScanError('invalid_option', `The client's ${name} ${why}; nothing was paid.`, {
    paid: false,
    kind: 'usage',
  });

function checkUrl(name: string, value: unknown): void {
  let url: URL | undefined;
  try {
    url = new URL(String(value));
  } catch {}
  if (typeof value !== 'string' || (url?.protocol !== 'http:' && url?.protocol !== 'https:'))
    throw refuseOption(name, `must be an http(s) URL, not ${JSON.stringify(value)}`);
}

function checkAmount(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0))
    throw refuseOption(name, `must be a number of USD of 0 or more, not ${String(value)}`);
}

/** The options a client cannot work with, refused when it is made rather than at its first call. */
function checkOptions(options: RiskScanClientOptions): void {
  checkUrl('apiUrl', options.apiUrl);
  checkUrl('rpcUrl', options.rpcUrl);
  if (typeof options.payTo !== 'string' || !isAddress(options.payTo))
    throw refuseOption('payTo', `must be the service's payee address, not ${JSON.stringify(options.payTo)}`);
  checkAmount('maxPerCallUsd', options.maxPerCallUsd);
  checkAmount('budgetUsd', options.budgetUsd);
  const timeout = options.timeoutMs;
  // setTimeout's own limit: a longer wait would fire at once.
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0 && timeout <= 2_147_483_647))
    throw refuseOption('timeoutMs', `must be a whole number of milliseconds above 0, not ${String(timeout)}`);
}

export class RiskScanClient {
  private readonly budget: SessionBudget;
  private readonly payOptions: Omit<PayOptions, 'onPaymentSent'>;
  private readonly maxPerCallUsd: number;

  constructor(private readonly options: RiskScanClientOptions) {
    checkOptions(options);
    this.maxPerCallUsd = options.maxPerCallUsd ?? MAX_PER_CALL_USD;
    this.budget = new SessionBudget(usdcUnits(options.budgetUsd ?? BUDGET_USD));
    const doFetch = options.fetch ?? fetch;
    const jwksUrl = new URL('/.well-known/jwks.json', options.apiUrl).href;
    this.payOptions = {
      rpcUrl: options.rpcUrl,
      signer: options.signer,
      pin: {
        payTo: options.payTo,
        asset: options.asset ?? USDC_MAINNET,
        network: options.network ?? CAIP2_MAINNET,
      },
      maxPerCallUsd: this.maxPerCallUsd,
      timeoutS: (options.timeoutMs ?? TIMEOUT_MS) / 1000,
      verifier: new ResultVerifier(jwksUrl, options.signingKey, doFetch),
      fetch: doFetch,
    };
  }

  /** What this client has paid, in USD (calls lost after their payment left included). */
  get spentUsd(): number {
    return Number(this.budget.spent()) / 1e6;
  }

  get remainingUsd(): number {
    return Number(this.budget.remaining() ?? 0n) / 1e6;
  }

  scanToken = (mint: string) => this.get('token', mint);
  scanPumpfun = (mint: string) => this.get('pumpfun', mint);
  scanWallet = (address: string) => this.get('wallet', address);
  verifyTx = (signature: string) => this.get('tx', signature);
  scanProgram = (id: string) => this.get('program', id);

  /** POST /simulate/tx with `{ transaction: <base64 wire transaction> }`. */
  simulateTx(body: { transaction: string; [k: string]: unknown }): Promise<Paid<ScanResult>> {
    return this.call<ScanResult>({
      api: this.options.apiUrl,
      path: pathOf('simulate'),
      data: JSON.stringify(body),
    });
  }

  /**
   * POST /scan/batch with `{ kind, subjects }`: 1 to 25 addresses of one kind, scanned as their
   * single scans and paid once, each distinct subject at its kind's single price (less the
   * operator's discount). Held to the catalog's per-item price, the cap and the budget like any call.
   */
  scanBatch(kind: BatchKind, subjects: readonly string[]): Promise<Paid<BatchResult>> {
    const data = JSON.stringify({ kind, subjects });
    return this.call<BatchResult>({ api: this.options.apiUrl, path: pathOf('batch'), data });
  }

  /** POST /watch with `{ kind, subject, webhook, hours }`: the watch created (its id, expiry, baseline). */
  watch(order: Record<string, unknown>): Promise<Paid<unknown>> {
    return this.call({ api: this.options.apiUrl, path: pathOf('watch'), data: JSON.stringify(order) });
  }

  private get(id: EndpointId, subject: string): Promise<Paid<ScanResult>> {
    return this.call<ScanResult>({ api: this.options.apiUrl, path: pathOf(id, subject) });
  }

  /** The budget holds the catalog's price while the call runs; what it paid stays spent. */
  private async call<T>(request: PayRequest): Promise<Paid<T>> {
    const method = request.data === undefined ? 'GET' : 'POST';
    const price = catalogUnits(method, request.path, request.data) ?? 0n;
    const allowance = this.budget.hold(price, this.maxPerCallUsd);
    if (allowance === null) throw this.overBudget(price);
    let sentUsd: number | null = null;
    let paidUsd: number | null = null;
    try {
      const outcome = await payForCall(request, {
        ...this.payOptions,
        onPaymentSent: (usd) => this.charge(allowance, usd, () => (sentUsd = usd)),
      });
      if (outcome.status === 200 && outcome.sentUsd === null) throw unaskedResult(outcome);
      if (outcome.status !== 200) {
        const error = httpError(outcome);
        if (error.paid) paidUsd = outcome.sentUsd;
        throw error;
      }
      paidUsd = outcome.paidUsd;
      return this.paid<T>(outcome);
    } catch (e) {
      // A failure after the payment left may still have been charged: it counts as spent.
      if (!(e instanceof RiskScanError) || e.paid) paidUsd ??= sentUsd;
      throw e;
    } finally {
      this.budget.release(allowance, paidUsd);
    }
  }

  private charge(allowance: Allowance, usd: number, sent: () => void): void {
    if (!this.budget.charge(allowance, usdcUnits(usd))) throw this.overBudget(usdcUnits(usd));
    sent();
  }

  private overBudget(price: bigint): RiskScanError {
    return new RiskScanError(
      'over_budget',
      `The call costs ${Number(price) / 1e6} USDC and this client has ${this.budget.left()} USDC left of its budget; nothing was paid.`,
      { paid: false, kind: 'usage' },
    );
  }

  private paid<T>(outcome: CallOutcome): Paid<T> {
    return {
      result: outcome.body as T,
      paidUsd: outcome.paidUsd ?? 0,
      transaction:
        typeof outcome.settlement?.transaction === 'string' ? outcome.settlement.transaction : null,
      network: outcome.settlement?.network ?? this.payOptions.pin.network,
    };
  }
}
