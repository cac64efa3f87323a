/**
 * The payment gate: the life cycle of a paid call (DESIGN §3). The money rules it keeps:
 * - a payment is claimed (sha256 of its message) before any work, so it buys one result;
 * - nothing is settled unless the result exists; a failed scan costs nothing (500);
 * - no result leaves without a successful settlement — or, when settlement is ambiguous,
 *   without the chain showing that the payment landed;
 * - a settled payment's response is kept: presenting the same payment again returns it.
 */
import type { Context } from 'hono';
import { atomicPrice, type PaidEndpoint } from '../catalog.js';
import { ScanResultSchema } from '../contract/schemas.js';
import { ServiceError } from '../errors.js';
import type { ScanRun } from '../scans/service.js';
import type { AppEnv } from '../server/context.js';
import type { Logger } from '../server/logger.js';
import type { PaymentGate, PresentedPayment, Refuse } from '../server/paid-routes.js';
import { reply, replyError } from '../server/respond.js';
import {
  type FacilitatorClient,
  FacilitatorError,
  type SettleAnswer,
  type VerifyAnswer,
} from './facilitator-client.js';
import type { FacilitatorDirectory, FacilitatorStatus } from './facilitators.js';
import { decodePaymentHeader, encodeReceipt, type PaymentTerms, receiptHeaderName } from './headers.js';
import { isSolanaMainnet, SOLANA_MAINNET_CAIP2, SOLANA_MAINNET_V1, USDC_MINT } from './networks.js';
import { v1Requirement, v2Requirement } from './offer.js';
import type { PaymentStore, StoredResponse } from './payment-store.js';
import {
  type InspectedPayment,
  inspectPaymentTransaction,
  type PaymentExpectation,
} from './payment-transaction.js';
import type { SettlementLookup } from './settlement-lookup.js';

export interface GateOptions {
  readonly facilitators: FacilitatorDirectory;
  readonly client: FacilitatorClient;
  readonly store: PaymentStore;
  readonly scan: (endpoint: PaidEndpoint, subject: string) => Promise<ScanRun>;
  /** False for an endpoint this build cannot serve: its payments are refused before anything else. */
  readonly canScan: (endpoint: PaidEndpoint) => boolean;
  readonly lookup: SettlementLookup;
  readonly payTo: string;
  /** payTo's associated token account for USDC, per token program. */
  readonly destinations: PaymentExpectation['destinations'];
  readonly maxTimeoutSeconds: number;
  readonly verifyTimeoutMs: number;
  readonly settleTimeoutMs: number;
  /** Start the scan while the facilitator verifies (hides verify latency). */
  readonly parallelVerify: boolean;
  /** How long an ambiguous settlement is watched on chain before answering. */
  readonly confirmWindowMs: number;
  /** `version` label of results. */
  readonly resultVersion: string;
  readonly log: Logger;
}

/** Settle failures after which the transaction was certainly never sent. */
const NEVER_SENT =
  /^(invalid_|insufficient_funds|unsupported_|fee_payer_not_managed|transaction_simulation_failed|payment_expired|unexpected_verify)/;

/**
 * Why a payment that bought the result of `paidFor` (settled), or is being settled for it
 * (pending), buys nothing else.
 */
function paidForAnother(paidFor: string, pending = false): string {
  const state = pending ? 'is being settled for' : 'already paid for';
  return `payment_used: this payment ${state} ${paidFor}; repeat that request with it to receive that result, or pay anew for this one`;
}

type Resolution =
  | { kind: 'deliver' }
  | { kind: 'refuse'; reason: string }
  | { kind: 'pending'; signature: string | null };

export function createPaymentGate(options: GateOptions): PaymentGate {
  const { store, log } = options;

  const expectation = (endpoint: PaidEndpoint): PaymentExpectation => ({
    amount: BigInt(atomicPrice(endpoint.priceUsd)),
    asset: USDC_MINT as PaymentExpectation['asset'],
    destinations: options.destinations,
    feePayers: new Set(options.facilitators.status().flatMap((s) => (s.feePayer ? [s.feePayer] : []))),
  });

  /** Checks that need no network: header, terms, transaction. */
  async function admit(endpoint: PaidEndpoint, presented: PresentedPayment) {
    if (!options.canScan(endpoint)) {
      return { error: `${endpoint.path} cannot deliver results in this build; nothing was charged` } as const;
    }
    const decoded = decodePaymentHeader(presented.header);
    if (!decoded.ok) return { error: decoded.reason } as const;
    const terms = decoded.payment;
    if (terms.scheme !== 'exact')
      return { error: `scheme "${terms.scheme}" is not accepted; pay with "exact"` } as const;
    if (!isSolanaMainnet(terms.network)) {
      return {
        error: `network "${terms.network}" is not accepted; pay on Solana mainnet (solana-mainnet)`,
      } as const;
    }
    const price = atomicPrice(endpoint.priceUsd);
    if (terms.accepted !== null) {
      if (terms.accepted.amount !== price)
        return { error: `accepted amount ${terms.accepted.amount} is not the price ${price}` } as const;
      if (terms.accepted.asset !== USDC_MINT)
        return { error: `asset ${terms.accepted.asset} is not USDC` } as const;
      if (terms.accepted.payTo !== options.payTo)
        return { error: `payTo ${terms.accepted.payTo} is not this service's` } as const;
    }
    const inspection = await inspectPaymentTransaction(terms.transaction, expectation(endpoint));
    if (!inspection.ok) return { error: inspection.reason } as const;
    const facilitator = options.facilitators.byFeePayer(inspection.payment.feePayer);
    if (facilitator === null)
      return { error: 'no facilitator manages the fee payer this payment names' } as const;
    return { terms, payment: inspection.payment, facilitator } as const;
  }

  function facilitatorCall(
    endpoint: PaidEndpoint,
    presented: PresentedPayment,
    terms: PaymentTerms,
    payment: InspectedPayment,
    f: FacilitatorStatus,
    timeoutMs: number,
  ) {
    const terms402 = {
      payTo: options.payTo,
      feePayer: payment.feePayer,
      maxTimeoutSeconds: options.maxTimeoutSeconds,
      error: '',
    };
    // Speak the version the facilitator lists; the signed transaction is the same in both.
    const useV2 = f.networks.v2 !== null && (terms.version === 2 || f.networks.v1 === null);
    const network = useV2 ? (f.networks.v2 ?? SOLANA_MAINNET_CAIP2) : (f.networks.v1 ?? SOLANA_MAINNET_V1);
    // The URL the 402 offered (PUBLIC_BASE_URL-based behind a proxy), not the one this hop saw.
    const resource = presented.resource;
    const requirement = useV2
      ? { ...v2Requirement(endpoint, terms402), network }
      : { ...v1Requirement(endpoint, terms402, resource), network };
    const paymentPayload = useV2
      ? {
          x402Version: 2,
          accepted: requirement,
          payload: { transaction: terms.transaction },
          resource: { url: resource },
        }
      : { x402Version: 1, scheme: 'exact', network, payload: { transaction: terms.transaction } };
    return {
      url: f.url,
      x402Version: useV2 ? 2 : 1,
      paymentPayload,
      paymentRequirements: requirement,
      timeoutMs,
    } as const;
  }

  function deliver(c: Context<AppEnv>, stored: StoredResponse): Response {
    return reply(c, stored.status, stored.body, { ...stored.headers });
  }

  function buildResponse(
    c: Context<AppEnv>,
    resource: string,
    run: ScanRun,
    receipt: string,
    version: 1 | 2,
  ): StoredResponse {
    const body = {
      ...run.result,
      cached: run.cachedAt !== null,
      ...(run.cachedAt !== null ? { cached_at: run.cachedAt } : {}),
      version: options.resultVersion,
      request_id: c.env.frame.requestId,
    };
    // A malformed result is a failed scan: it is never sold.
    ScanResultSchema.parse(body);
    return {
      resource,
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        [receiptHeaderName(version)]: receipt,
      },
      body: JSON.stringify(body),
    };
  }

  async function settleOutcome(
    payment: InspectedPayment,
    answer: SettleAnswer | FacilitatorError,
  ): Promise<Resolution> {
    if (!(answer instanceof FacilitatorError) && answer.success) return { kind: 'deliver' };
    const reason =
      answer instanceof FacilitatorError ? answer.message : (answer.errorReason ?? 'settlement failed');
    if (!(answer instanceof FacilitatorError) && NEVER_SENT.test(reason)) return { kind: 'refuse', reason };
    // Ambiguous: the transaction may have been sent. Watch the chain for a while.
    const signature = answer instanceof FacilitatorError ? null : answer.transaction || null;
    const deadline = Date.now() + options.confirmWindowMs;
    for (;;) {
      const state = await options.lookup
        .find(payment.key, { signature, blockhash: payment.blockhash })
        .catch(() => 'unknown' as const);
      if (state === 'landed') return { kind: 'deliver' };
      if (state === 'failed' || state === 'expired')
        return { kind: 'refuse', reason: `${reason}; the payment did not land` };
      if (Date.now() >= deadline) return { kind: 'pending', signature };
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async function resolvePending(c: Context<AppEnv>, key: string, refuse: Refuse) {
    const pending = await store.claimPending(key);
    if (pending === null) return refuse('payment_in_use: this payment is being processed by another request');
    const state = await options.lookup
      .find(key, { signature: pending.signature, blockhash: pending.blockhash })
      .catch(() => 'unknown' as const);
    if (state === 'landed') {
      await store.complete(key, pending.response);
      return deliver(c, pending.response);
    }
    if (state === 'failed' || state === 'expired') {
      await store.release(key);
      return refuse('the payment did not land; nothing was charged');
    }
    await store.markPending(key, pending);
    return refuse(
      'settlement_unconfirmed: the payment has not landed yet; repeat this request with the same payment to receive the result once it does',
    );
  }

  return {
    async handle(c, endpoint, value, presented, refuse) {
      const admitted = await admit(endpoint, presented);
      if ('error' in admitted) return refuse(admitted.error ?? 'invalid payment');
      const { terms, payment, facilitator } = admitted;
      c.env.frame.logFields.payment_key = payment.key.slice(0, 16);

      const resource = presented.path;
      const claim = await store.claim(payment.key);
      // A payment buys one result: asked again, it gives that result again, and only for its path.
      const kept =
        claim.state === 'settled'
          ? claim.response
          : claim.state === 'pending'
            ? claim.pending.response
            : null;
      if (kept !== null && kept.resource !== resource) {
        return refuse(paidForAnother(kept.resource, claim.state === 'pending'));
      }
      if (claim.state === 'settled') return deliver(c, claim.response);
      if (claim.state === 'pending') return resolvePending(c, payment.key, refuse);
      if (claim.state === 'in_flight') {
        return refuse('payment_in_use: this payment is already being processed');
      }

      let settled = false;
      try {
        const scanning = options.parallelVerify ? options.scan(endpoint, value) : null;
        scanning?.catch(() => undefined); // observed below; never an unhandled rejection
        const verifyCall = facilitatorCall(
          endpoint,
          presented,
          terms,
          payment,
          facilitator,
          options.verifyTimeoutMs,
        );
        let verdict: VerifyAnswer;
        try {
          verdict = await options.client.verify(verifyCall);
        } catch (e) {
          if (!(e instanceof FacilitatorError)) throw e;
          await store.release(payment.key);
          options.facilitators.markUnhealthy(facilitator.url, e.message);
          return refuse(`the facilitator could not verify the payment (${e.message}); nothing was charged`);
        }
        if (!verdict.isValid) {
          await store.release(payment.key);
          return refuse(`payment refused: ${verdict.invalidReason ?? 'invalid payment'}`);
        }

        let response: StoredResponse;
        try {
          const run = await (scanning ?? options.scan(endpoint, value));
          response = buildResponse(c, resource, run, '', terms.version);
        } catch (e) {
          await store.release(payment.key);
          log.warn({ req_id: c.env.frame.requestId, err: e }, 'scan failed; payment not settled');
          return replyError(
            c,
            new ServiceError(
              'scan_failed',
              'The scan could not be completed; the payment was not settled and can be used again.',
            ),
          );
        }

        const settleCall = facilitatorCall(
          endpoint,
          presented,
          terms,
          payment,
          facilitator,
          options.settleTimeoutMs,
        );
        const answer = await options.client.settle(settleCall).catch((e: unknown) => {
          if (e instanceof FacilitatorError) return e;
          throw e;
        });
        const outcome = await settleOutcome(payment, answer);
        const signature = answer instanceof FacilitatorError ? '' : (answer.transaction ?? '');
        const receipt = encodeReceipt({
          success: outcome.kind === 'deliver',
          transaction: signature,
          network: terms.network,
          payer: payment.payer,
          ...(outcome.kind === 'refuse' ? { errorReason: outcome.reason } : {}),
        });
        const final: StoredResponse = {
          ...response,
          headers: { ...response.headers, [receiptHeaderName(terms.version)]: receipt },
        };
        if (outcome.kind === 'deliver') {
          settled = true;
          await store.complete(payment.key, final);
          return deliver(c, final);
        }
        if (outcome.kind === 'pending') {
          settled = true; // the result is kept, not released: it belongs to the payer if the payment lands
          await store.markPending(payment.key, {
            response: final,
            signature: outcome.signature,
            blockhash: payment.blockhash,
          });
          return refuse(
            'settlement_unconfirmed: the payment has not landed yet; repeat this request with the same payment to receive the result once it does',
          );
        }
        await store.release(payment.key);
        return refuse(`settlement failed: ${outcome.reason}; nothing was charged`, {
          [receiptHeaderName(terms.version)]: receipt,
        });
      } catch (e) {
        if (!settled) await store.release(payment.key);
        throw e;
      }
    },
  };
}
