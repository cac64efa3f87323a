/**
 * Builds the whole service from a Config: RPC, scans, payments, facilitators, app.
 * main.ts, the sandbox command and the end-to-end tests all start the service through here.
 */
import { type Address, address } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import { PAID_ENDPOINTS, type PaidEndpoint, type ScanId } from './catalog.js';
import type { Config } from './config.js';
import { OfferBook } from './door/offers.js';
import { createPaidDoor } from './door/paid-door.js';
import { createShedder, type Shedder } from './door/shedding.js';
import { errorMessage } from './errors.js';
import { cachedCheck, type HealthCheck } from './health.js';
import { DISCOVERY_PATHS, SERVICE_NAME } from './identity.js';
import { createMcpHandler } from './mcp/http-route.js';
import { mcpDocsSection, mcpFacts } from './mcp/tools.js';
import { createResultProducer } from './scans/result-body.js';
import type { Scanner } from './scans/scanner.js';
import { ScanService } from './scans/service.js';
import { VerifiedTokenList } from './scans/verified/list-source.js';
import { withVerifiedTokens } from './scans/verified/with-registry.js';
import { buildApp } from './server/app.js';
import { docsIntro } from './server/docs/intro.js';
import { createDocsRoutes } from './server/docs/routes.js';
import type { FramedApp } from './server/frame.js';
import { listen, type RunningServer } from './server/listen.js';
import { createLogger, type Logger } from './server/logger.js';
import { type CircuitReading, createMetrics, type Metrics, serveMetrics } from './server/metrics.js';
import { createFacilitatorMetrics, createRpcMetrics, endpointHost } from './server/upstream-metrics.js';
import { bodySigner, jwks } from './signing/signature.js';
import { createServesMonitor, probePumpCreatorSearch, type ServesMonitor } from './solana/program-search.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './solana/programs.js';
import { createRpcEndpoints, type SolanaRpc } from './solana/rpc.js';
import {
  type Capabilities,
  createCapabilityMonitor,
  probeRpcCapabilities,
} from './solana/rpc-capabilities.js';
import { rpcHealthCheck } from './solana/rpc-health.js';
import { type CacheStore, createMemoryCache } from './state/cache/store.js';
import { openState, type ServiceState } from './state/open.js';
import type { PaymentStore } from './state/payments/store.js';
import { loadSigningKey } from './state/signing-key.js';
import type { WatchState } from './state/watches/store.js';
import { SERVICE_VERSION } from './version.js';
import { createWatchProducer } from './watch/door/produce.js';
import { createWatchFeature, type WatchFeature } from './watch/feature.js';
import type { ResolveHost } from './watch/webhook-url.js';
import type { ProduceResult } from './x402/core.js';
import { createFacilitatorClient } from './x402/facilitator-client.js';
import type { FacilitatorObserver } from './x402/facilitator-observer.js';
import { FacilitatorDirectory } from './x402/facilitators.js';
import { createFundsCheck } from './x402/funds-check.js';
import { USDC_MINT } from './x402/networks.js';
import { createPaymentGate, type PaymentGate } from './x402/paid-call.js';
import { createSettlementLookup } from './x402/settlement-lookup.js';

export interface ServiceOptions {
  readonly log?: Logger;
  /** The scanner of each paid endpoint. */
  readonly scanners?: Readonly<Partial<Record<ScanId, Scanner>>>;
  /**
   * The watches' state, when not the one opened beside the payments (POST /watch, GET and DELETE
   * /watch/{id} are served only with one), and the resolver the SSRF guard of their webhooks asks
   * (tests inject one; default the system's).
   */
  readonly watches?: { readonly state?: WatchState; readonly resolve?: ResolveHost };
  /** For fault-injection tests: the fetch used to reach facilitators. */
  readonly facilitatorFetch?: typeof fetch;
  /** Replaces the RPC client (e.g. with a counting or failing transport). */
  readonly rpc?: SolanaRpc;
  readonly paymentStore?: PaymentStore;
  readonly cache?: CacheStore;
  /** Replaces the default dependency checks (RPC). */
  readonly healthChecks?: Readonly<Record<string, HealthCheck>>;
  /**
   * Probe at start() which methods the RPC serves, and list them on /health
   * (`rpc_capabilities`). Default: in mainnet mode, unless `healthChecks` are replaced.
   */
  readonly probeRpc?: boolean;
}

export interface Service {
  readonly app: FramedApp;
  readonly facilitators: FacilitatorDirectory;
  readonly log: Logger;
  readonly rpc: SolanaRpc;
  /** The watches this service keeps; null where it takes no payments. */
  readonly watches: WatchState | null;
  /** The service's metrics registry when METRICS_PORT is set; null otherwise. */
  readonly metrics: Metrics | null;
  /** Learns the facilitators' fee payers (first round awaited) and keeps them fresh; probes the RPC's capabilities. */
  start(): Promise<void>;
  /** What the RPC can do for each check family, once start() has probed it; null when not probed. */
  rpcCapabilities(): Capabilities | null;
  listen(): Promise<RunningServer>;
  /**
   * Stops background work, writes the payment records still waiting for the store (trying for
   * RECORD_FLUSH_MS at most) and closes the stores; call after the server has drained.
   */
  stop(): Promise<void>;
}

/** How long a stopping service keeps trying to write payment records the store refused. */
const RECORD_FLUSH_MS = 10_000;

/**
 * How long a shutdown may take at most: every paid call in flight runs to its end (its own
 * deadlines bound it), then the records are flushed. Past it a signal handler may force the exit.
 */
export function shutdownBoundMs(config: Config): number {
  return config.longestPaidCallMs + RECORD_FLUSH_MS + 5_000;
}

/** Each capability probe call gets this long at most (or RPC_TIMEOUT_MS if shorter). */
const CAPABILITY_PROBE_TIMEOUT_MS = 5_000;
/** /health re-probes the RPC's capabilities in the background when the last probe is this old. */
const CAPABILITY_REPROBE_MS = 30 * 60_000;

/** payTo's USDC account under each token program (USDC itself is SPL Token). */
async function payToDestinations(payTo: Address): Promise<Record<string, Address>> {
  const mint = address(USDC_MINT);
  const [token] = await findAssociatedTokenPda({ owner: payTo, mint, tokenProgram: TOKEN_PROGRAM });
  const [token2022] = await findAssociatedTokenPda({ owner: payTo, mint, tokenProgram: TOKEN_2022_PROGRAM });
  return { [TOKEN_PROGRAM]: token, [TOKEN_2022_PROGRAM]: token2022 };
}

/** The configured state, or the store and cache a caller (a test) passes in. */
async function stateFor(config: Config, options: ServiceOptions, log: Logger): Promise<ServiceState> {
  if (options.paymentStore !== undefined) {
    return {
      payments: options.paymentStore,
      cache: options.cache ?? createMemoryCache(),
      where: 'a store given by the caller',
      close: async () => {},
    };
  }
  const { maxWatches, maxWatchesPerSubject } = config.watch;
  const resolve = options.watches?.resolve;
  const state = await openState(config, log, {
    maxWatches,
    maxWatchesPerSubject,
    ...(resolve ? { resolve } : {}),
  });
  return options.cache ? { ...state, cache: options.cache } : state;
}

function stateCheck(state: ServiceState): HealthCheck {
  return cachedCheck(async () => {
    await state.payments.check();
    return { status: 'ok', detail: state.where };
  }, 2_000);
}

/** Where the watches are kept, as /health shows it: beside the payments unless a caller gave its own. */
function watchesWhere(options: ServiceOptions, state: ServiceState | null): string {
  return options.watches?.state === undefined && state !== null
    ? state.where
    : 'a watch state given by the caller';
}

/**
 * Where the watches are kept and whether that store answers (cached as the payment state's
 * check is), with what this instance follows now: live, as the subscriptions come and go.
 */
function watchesCheck(feature: WatchFeature, where: string): HealthCheck {
  const store = cachedCheck(async () => {
    try {
      await feature.state.check();
    } catch (e) {
      throw new Error(`watches in ${where} unavailable: ${errorMessage(e)}`);
    }
    return { status: 'ok', detail: where };
  }, 2_000);
  return async () => ({ ...(await store()), following: feature.following() });
}

function buildPaymentGate(
  config: Config,
  options: ServiceOptions,
  deps: {
    facilitators: FacilitatorDirectory;
    rpc: SolanaRpc;
    log: Logger;
    destinations: Record<string, Address>;
    state: ServiceState;
    metrics: Metrics | null;
    facilitatorObserver: FacilitatorObserver | undefined;
    serves: ServesMonitor;
    keyId: string;
    watches: WatchState | null;
  },
): PaymentGate | undefined {
  if (options.scanners === undefined) return undefined;
  const scans = new ScanService({
    scanners: options.scanners,
    rpc: deps.rpc,
    cache: deps.state.cache,
    ...(deps.state.flights ? { flights: deps.state.flights } : {}),
    timeoutMs: config.scanTimeoutMs,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    serves: deps.serves.serves,
  });
  return createPaymentGate({
    facilitators: deps.facilitators,
    client: createFacilitatorClient(options.facilitatorFetch, deps.facilitatorObserver),
    store: deps.state.payments,
    produce: producerOf(scans, deps.watches, deps.keyId),
    canProduce: (endpoint) => (endpoint.id === 'watch' ? deps.watches !== null : scans.canScan(endpoint.id)),
    lookup: createSettlementLookup(deps.rpc, deps.destinations[TOKEN_PROGRAM]!),
    funds: createFundsCheck(deps.rpc),
    payTo: config.payTo!,
    destinations: deps.destinations,
    maxTimeoutSeconds: config.maxTimeoutSeconds,
    verifyTimeoutMs: config.facilitatorTimeoutMs,
    settleTimeoutMs: config.settleTimeoutMs,
    parallelVerify: config.parallelVerify,
    confirmWindowMs: config.confirmWindowMs,
    maxComputeUnitPrice: config.maxComputeUnitPrice,
    maxComputeUnitLimit: config.maxComputeUnitLimit,
    log: deps.log,
    ...(deps.metrics ? { onVerified: () => deps.metrics?.payment('verified') } : {}),
  });
}

/** What each paid endpoint sells: its scan's result, or for POST /watch the watch's answer. */
function producerOf(scans: ScanService, watches: WatchState | null, keyId: string): ProduceResult {
  const scanResult = createResultProducer(scans, SERVICE_VERSION);
  const endpointOf = (kind: ScanId) => PAID_ENDPOINTS.find((e) => e.id === kind) as PaidEndpoint;
  const watch =
    watches === null
      ? null
      : createWatchProducer({
          state: watches,
          keyId,
          scan: (kind, subject, requestId, maxAgeMs) =>
            scanResult(endpointOf(kind), subject, requestId, undefined, maxAgeMs),
        });
  return (endpoint, subject, requestId, resource) => {
    if (endpoint.id !== 'watch') return scanResult(endpoint, subject, requestId);
    if (watch === null) throw new Error('POST /watch is not served without a watch state');
    return watch(subject, requestId, resource);
  };
}

/** The watch feature where payments are taken and a watch state is kept; null otherwise. */
function watchFeatureOf(
  config: Config,
  options: ServiceOptions,
  deps: { state: ServiceState | null; rpc: SolanaRpc; serves: ServesMonitor; log: Logger },
): WatchFeature | null {
  const watches = options.watches?.state ?? deps.state?.watches;
  if (options.scanners === undefined || watches === undefined) return null;
  const resolve = options.watches?.resolve;
  return createWatchFeature({
    config,
    state: watches,
    rpc: deps.rpc,
    scanners: options.scanners,
    serves: deps.serves.serves,
    log: deps.log,
    ...(resolve ? { resolve } : {}),
  });
}

/** Has the metrics read circuit states, the event-loop delay and the paid calls at each scrape. */
function watchState(
  metrics: Metrics,
  sources: {
    rpcCircuits: () => readonly { url: string; state: CircuitReading['state'] }[];
    facilitators: FacilitatorDirectory;
    shedder: Shedder;
    unrecorded: () => number;
  },
): void {
  metrics.watchCircuits(() => [
    ...sources.rpcCircuits().map((c, i) => ({
      kind: 'rpc' as const,
      host: endpointHost(c.url),
      position: i + 1,
      state: c.state,
    })),
    ...sources.facilitators.status().map((f, i) => ({
      kind: 'facilitator' as const,
      host: endpointHost(f.url),
      position: i + 1,
      state: f.healthy ? ('closed' as const) : ('open' as const),
    })),
  ]);
  metrics.watchEventLoopDelay(() => sources.shedder.delayMs() / 1000);
  metrics.watchPaidCalls(() => ({ inflight: sources.shedder.inflight(), unrecorded: sources.unrecorded() }));
}

/** The verified-token list scans judge impersonation by, where one is configured and scans run. */
function verifiedTokensOf(config: Config, options: ServiceOptions, log: Logger): VerifiedTokenList | null {
  const { source } = config.verifiedTokens;
  if (source === null || options.scanners === undefined) return null;
  return new VerifiedTokenList({ source, stateDir: config.stateDir, log });
}

/** The options with every scanner given the list's copy in use (paid scans and watches alike). */
function scanningWith(options: ServiceOptions, list: VerifiedTokenList | null): ServiceOptions {
  if (list === null || options.scanners === undefined) return options;
  return { ...options, scanners: withVerifiedTokens(options.scanners, () => list.current()) };
}

export async function createService(config: Config, given: ServiceOptions = {}): Promise<Service> {
  if (config.payTo === null) throw new Error('createService needs a payTo address');
  const log = given.log ?? createLogger(config.logLevel);
  const verifiedTokens = verifiedTokensOf(config, given, log);
  const options = scanningWith(given, verifiedTokens);
  const metrics = config.metricsPort === null ? null : createMetrics();
  const endpoints =
    options.rpc === undefined
      ? createRpcEndpoints({
          urls: config.rpcUrls,
          timeoutMs: config.rpcTimeoutMs,
          breaker: config.rpcBreaker,
          ...(metrics ? { observer: createRpcMetrics(metrics.registry, config.rpcUrls) } : {}),
        })
      : null;
  const facilitatorObserver = metrics
    ? createFacilitatorMetrics(metrics.registry, config.facilitatorUrls)
    : undefined;
  const rpc = options.rpc ?? endpoints!.rpc;
  const facilitators = new FacilitatorDirectory({
    urls: config.facilitatorUrls,
    timeoutMs: config.facilitatorTimeoutMs,
    refreshMs: config.supportedRefreshMs,
    ...(options.facilitatorFetch ? { fetch: options.facilitatorFetch } : {}),
    onError: (url, message) => log.warn({ facilitator: url, reason: message }, 'facilitator unavailable'),
    ...(facilitatorObserver ? { observer: facilitatorObserver } : {}),
  });
  const destinations = await payToDestinations(address(config.payTo));
  // Payment state is opened only where payments are taken (a service with scanners).
  const state = options.scanners === undefined ? null : await stateFor(config, options, log);
  // After the payment state, whose failures are named first (and which loads it to open the
  // watches); a key that cannot be had stops the start.
  const signingKey =
    state?.signingKey ??
    (await loadSigningKey(config).catch(async (e: unknown) => {
      await state?.close();
      throw e;
    }));
  const probeRpc = options.probeRpc ?? (config.mode === 'mainnet' && options.healthChecks === undefined);
  const capabilities = probeRpc
    ? createCapabilityMonitor(
        () => probeRpcCapabilities(rpc, Math.min(config.rpcTimeoutMs, CAPABILITY_PROBE_TIMEOUT_MS)),
        CAPABILITY_REPROBE_MS,
      )
    : null;
  const checks: Record<string, HealthCheck> = {
    ...(options.healthChecks ?? {
      rpc: cachedCheck(rpcHealthCheck(config.rpcUrls[0]!, Math.min(config.rpcTimeoutMs, 3_000)), 5_000),
    }),
    ...(capabilities ? { rpc_capabilities: capabilities.check } : {}),
    ...(state ? { payment_state: stateCheck(state) } : {}),
  };
  // Scans choose their sources from it (pump.fun creator history); never part of /health.
  const serves = createServesMonitor(
    () => probePumpCreatorSearch(rpc, Math.min(config.rpcTimeoutMs, CAPABILITY_PROBE_TIMEOUT_MS)),
    CAPABILITY_REPROBE_MS,
  );
  const watchFeature = watchFeatureOf(config, options, { state, rpc, serves, log });
  if (watchFeature) checks.watches = watchesCheck(watchFeature, watchesWhere(options, state));
  const paymentGate = state
    ? buildPaymentGate(config, options, {
        facilitators,
        rpc,
        log,
        destinations,
        state,
        metrics,
        facilitatorObserver,
        serves,
        keyId: signingKey.kid,
        watches: watchFeature?.state ?? null,
      })
    : undefined;
  const shedder = createShedder(config.shedding);
  if (metrics !== null) {
    watchState(metrics, {
      rpcCircuits: () => endpoints?.circuits() ?? [],
      facilitators,
      shedder,
      unrecorded: () => paymentGate?.unrecorded() ?? 0,
    });
  }
  const door = createPaidDoor({
    offers: new OfferBook({
      payTo: config.payTo,
      maxTimeoutSeconds: config.maxTimeoutSeconds,
      facilitators,
      publicBaseUrl: config.publicBaseUrl,
      v1Network: config.v1Network,
    }),
    log,
    ...(paymentGate ? { gate: paymentGate } : {}),
    ...(metrics ? { metrics } : {}),
    shedder,
    sign: bodySigner(signingKey),
    ...(watchFeature
      ? { screens: { watch: watchFeature.screen }, fulfil: { watch: watchFeature.fulfil } }
      : {}),
  });
  const app = buildApp({
    log,
    paid: { door, publicBaseUrl: config.publicBaseUrl },
    ...(metrics ? { metrics } : {}),
    mounted: [createMcpHandler(door)],
    ...(watchFeature ? { watches: { state: watchFeature.state } } : {}),
    discovery: {
      mode: config.mode,
      payTo: config.payTo,
      publicBaseUrl: config.publicBaseUrl,
      serviceVersion: SERVICE_VERSION,
      maxTimeoutSeconds: config.maxTimeoutSeconds,
      contactEmail: config.contactEmail,
      facilitators,
      health: { mode: config.mode, version: SERVICE_VERSION, startedAt: Date.now(), facilitators, checks },
      mcp: mcpFacts(),
      signingKeys: jwks([signingKey.publicJwk]),
    },
    extraRoutes: [
      createDocsRoutes({
        openapiPath: DISCOVERY_PATHS.openapi,
        title: `${SERVICE_NAME} — API reference`,
        publicBaseUrl: config.publicBaseUrl,
        mcp: mcpDocsSection(),
        intro: docsIntro(config.v1Network),
      }),
    ],
  });
  return {
    app,
    facilitators,
    log,
    rpc,
    watches: watchFeature?.state ?? null,
    start: async () => {
      await Promise.all([
        facilitators.start(),
        capabilities?.refresh(),
        verifiedTokens?.start(config.verifiedTokens.refreshMs),
      ]);
      watchFeature?.start();
    },
    rpcCapabilities: () => capabilities?.latest() ?? null,
    metrics,
    listen: async () => {
      const listening = await listen(app, { port: config.port, host: config.host });
      // Closing refuses new paid calls with 503 at once, and ends once the paid calls in
      // flight have settled and recorded and every connection has had its response.
      const running = {
        ...listening,
        close: async () => {
          await Promise.all([listening.close(), shedder.drain()]);
        },
      };
      if (metrics === null || config.metricsPort === null) return running;
      const served = await serveMetrics(metrics, config.host, config.metricsPort).catch(async (e) => {
        await running.close();
        throw e;
      });
      log.info({ metrics: served.url }, 'metrics served');
      return {
        ...running,
        metricsUrl: served.url,
        // Metrics last: an operator can watch the drain until the last paid call has its response.
        close: async () => {
          try {
            await running.close();
          } finally {
            await served.close();
          }
        },
      };
    },
    stop: async () => {
      facilitators.stop();
      verifiedTokens?.stop();
      shedder.close();
      await watchFeature?.stop();
      await paymentGate?.close(performance.now() + RECORD_FLUSH_MS);
      await state?.close();
    },
  };
}
