/**
 * The paid door of a service and what stands behind it: in a selling service the payment
 * gate (scans, settlement, the store) and the watch feature; in every service the offers, the
 * load shedder and the signature of delivered bodies.
 */
import { BATCH_KINDS, endpointById, type PaidEndpoint, type Producer } from '../catalog.js';
import type { Config } from '../config.js';
import { OfferBook } from '../door/offers.js';
import { createPaidDoor, type PaidDoor } from '../door/paid-door.js';
import { createShedder, type Shedder } from '../door/shedding.js';
import { createBatchProducer, createResultProducer } from '../scans/result-body.js';
import { ScanService } from '../scans/service.js';
import { withFacts } from '../scans/with-facts.js';
import { bodySigner } from '../signing/signature.js';
import { TOKEN_PROGRAM } from '../solana/programs.js';
import type { ServiceState } from '../state/open.js';
import { SERVICE_VERSION } from '../version.js';
import { createWatchProducer } from '../watch/door/produce.js';
import { createWatchFeature, type WatchFeature } from '../watch/feature.js';
import type { WatchState } from '../watch/model.js';
import type { ProduceResult } from '../x402/core.js';
import { createFacilitatorClient } from '../x402/facilitator-client.js';
import { createFundsCheck } from '../x402/funds-check.js';
import { createPaymentGate, type PaymentGate } from '../x402/paid-call.js';
import { createSettlementLookup } from '../x402/settlement-lookup.js';
import type { Infrastructure } from './infrastructure.js';
import type { Selling, ServiceOptions } from './mode.js';

export interface DoorParts {
  readonly door: PaidDoor;
  readonly shedder: Shedder;
  /** Where payments are taken; absent where the service makes offers only. */
  readonly gate?: PaymentGate;
  /** POST /watch's steps and the triggers; null where the service makes offers only. */
  readonly watchFeature: WatchFeature | null;
  /** Where the watches are kept, as /health shows it. */
  readonly watchesWhere: string;
}

export function assembleDoor(config: Config, options: ServiceOptions, infra: Infrastructure): DoorParts {
  const { mode, state } = infra;
  // Paid scans and watch re-scans alike consult the facts kept across scans.
  const selling =
    mode.kind === 'sells' && state !== null
      ? { mode: { ...mode, scanners: withFacts(mode.scanners, state.facts) }, state }
      : null;
  const watchFeature = selling && watchFeatureOf(config, selling.mode, infra, selling.state);
  const gate = selling && paymentGateOf(config, options, infra, selling, watchFeature?.state ?? null);
  const shedder = createShedder(config.shedding);
  const door = createPaidDoor({
    offers: offerBookOf(config, infra),
    log: infra.log,
    ...(gate ? { gate } : {}),
    ...(infra.metrics ? { metrics: infra.metrics } : {}),
    shedder,
    sign: bodySigner(infra.signingKey),
    discountPercent: config.batchDiscountPercent,
    ...(watchFeature
      ? { screens: { watch: watchFeature.screen }, fulfil: { watch: watchFeature.fulfil } }
      : {}),
  });
  const given = selling?.mode.watches?.state !== undefined;
  const watchesWhere = given || state === null ? 'a watch state given by the caller' : state.where;
  return { door, shedder, ...(gate ? { gate } : {}), watchFeature, watchesWhere };
}

function offerBookOf(config: Config, infra: Infrastructure): OfferBook {
  return new OfferBook({
    payTo: config.payTo!,
    maxTimeoutSeconds: config.maxTimeoutSeconds,
    facilitators: infra.facilitators,
    publicBaseUrl: config.publicBaseUrl,
    v1Network: config.v1Network,
    discountPercent: config.batchDiscountPercent,
  });
}

/** The watch feature of a selling service, on the watch state given or kept beside the payments. */
function watchFeatureOf(
  config: Config,
  selling: Selling,
  infra: Infrastructure,
  state: ServiceState,
): WatchFeature {
  const resolve = selling.watches?.resolve;
  return createWatchFeature({
    config,
    state: selling.watches?.state ?? state.watches,
    // Re-scans ask behind paid scans under a stated rate limit.
    rpc: infra.watchRpc,
    scanners: selling.scanners,
    serves: infra.serves.serves,
    log: infra.log,
    ...(resolve ? { resolve } : {}),
  });
}

function paymentGateOf(
  config: Config,
  options: ServiceOptions,
  infra: Infrastructure,
  selling: { readonly mode: Selling; readonly state: ServiceState },
  watches: WatchState | null,
): PaymentGate {
  const scans = scanServiceOf(config, infra, selling);
  const { metrics, destinations, rpc } = infra;
  return createPaymentGate({
    facilitators: infra.facilitators,
    client: createFacilitatorClient(options.facilitatorFetch, infra.facilitatorObserver),
    store: selling.state.payments,
    produce: producerOf(scans, watches, infra.signingKey.kid),
    canProduce: canProduce(scans, watches),
    lookup: createSettlementLookup(rpc, destinations[TOKEN_PROGRAM]!),
    funds: createFundsCheck(rpc),
    payTo: config.payTo!,
    destinations,
    maxTimeoutSeconds: config.maxTimeoutSeconds,
    verifyTimeoutMs: config.facilitatorTimeoutMs,
    settleTimeoutMs: config.settleTimeoutMs,
    parallelVerify: config.parallelVerify,
    confirmWindowMs: config.confirmWindowMs,
    maxComputeUnitPrice: config.maxComputeUnitPrice,
    maxComputeUnitLimit: config.maxComputeUnitLimit,
    log: infra.log,
    ...(metrics ? { onVerified: () => metrics.payment('verified') } : {}),
  });
}

function scanServiceOf(
  config: Config,
  infra: Infrastructure,
  selling: { readonly mode: Selling; readonly state: ServiceState },
): ScanService {
  const { state } = selling;
  return new ScanService({
    scanners: selling.mode.scanners,
    rpc: infra.rpc,
    cache: state.cache,
    ...(state.flights ? { flights: state.flights } : {}),
    timeoutMs: config.scanTimeoutMs,
    ...(infra.metrics ? { metrics: infra.metrics } : {}),
    serves: infra.serves.serves,
    // Batches merge their scans' reads over the RPC's transport (src/scans/batch/).
    ...(infra.rpcTransport ? { transport: infra.rpcTransport } : {}),
    ...(config.batchReadsInFlight > 0 ? { batchReadsInFlight: config.batchReadsInFlight } : {}),
  });
}

/** What each paid endpoint sells, made by the producer its catalog entry names. */
function producerOf(scans: ScanService, watches: WatchState | null, keyId: string): ProduceResult {
  const scanResult = createResultProducer(scans, SERVICE_VERSION);
  const watch =
    watches === null
      ? null
      : createWatchProducer({
          state: watches,
          keyId,
          scan: (kind, subject, requestId, maxAgeMs) =>
            scanResult(endpointById(kind), subject, requestId, undefined, maxAgeMs),
        });
  const batchResult = createBatchProducer(scans, SERVICE_VERSION);
  const producers: Readonly<Record<Producer, ProduceResult>> = {
    scan: (endpoint, subject, requestId) => scanResult(endpoint, subject, requestId),
    batch: (_endpoint, subject, requestId) => batchResult(subject, requestId),
    watch: (endpoint, subject, requestId, resource) => {
      if (watch === null) throw new Error(`${endpoint.path} is not served without a watch state`);
      return watch(subject, requestId, resource);
    },
  };
  return (endpoint, ...call) => producers[endpoint.producer](endpoint, ...call);
}

/** Whether this build makes what an endpoint sells: its scanner, or a watch state. */
function canProduce(scans: ScanService, watches: WatchState | null): (endpoint: PaidEndpoint) => boolean {
  const can: Readonly<Record<Producer, (endpoint: PaidEndpoint) => boolean>> = {
    scan: (endpoint) => scans.canScan(endpoint.id),
    watch: () => watches !== null,
    // A batch of any kind it takes: refused before payment in a build without one of their scanners.
    batch: () => BATCH_KINDS.every((kind) => scans.canScan(kind)),
  };
  return (endpoint) => can[endpoint.producer](endpoint);
}
