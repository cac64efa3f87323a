/**
 * What every service stands on, whatever its mode: logs, metrics, the RPC, the facilitators,
 * payTo's accounts, the monitors of what the RPC serves, the verified-token list, and the
 * state (opened only where payments are taken) with the signing key.
 */
import { type Address, address, type RpcTransport } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import type { Config } from '../config.js';
import { VerifiedTokenList } from '../scans/verified/list-source.js';
import { withVerifiedTokens } from '../scans/verified/with-registry.js';
import { createLogger, type Logger } from '../server/logger.js';
import { type CircuitReading, createMetrics, type Metrics } from '../server/metrics.js';
import { createFacilitatorMetrics, createRpcMetrics } from '../server/upstream-metrics.js';
import type { SigningKey } from '../signing/key.js';
import { createServesMonitor, probePumpCreatorSearch, type ServesMonitor } from '../solana/program-search.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../solana/programs.js';
import { createRpcEndpoints, type SolanaRpc } from '../solana/rpc.js';
import {
  type CapabilityMonitor,
  createCapabilityMonitor,
  probeRpcCapabilities,
} from '../solana/rpc-capabilities.js';
import { openState, type ServiceState } from '../state/open.js';
import { loadSigningKey } from '../state/signing-key.js';
import type { FacilitatorObserver } from '../x402/facilitator-observer.js';
import { FacilitatorDirectory } from '../x402/facilitators.js';
import { USDC_MINT } from '../x402/networks.js';
import type { Selling, ServiceMode, ServiceOptions } from './mode.js';

/** Each capability probe call gets this long at most (or RPC_TIMEOUT_MS if shorter). */
const CAPABILITY_PROBE_TIMEOUT_MS = 5_000;
/** /health re-probes the RPC's capabilities in the background when the last probe is this old. */
const CAPABILITY_REPROBE_MS = 30 * 60_000;

export interface Infrastructure {
  readonly log: Logger;
  /** The service's metrics registry when METRICS_PORT is set; null otherwise. */
  readonly metrics: Metrics | null;
  readonly rpc: SolanaRpc;
  /** The same RPC asked as a watch re-scan: behind paid scans under a stated rate limit. */
  readonly watchRpc: SolanaRpc;
  /** The transport under `rpc`, for a batch to merge its reads over; absent when the caller gave its own RPC. */
  readonly rpcTransport?: RpcTransport;
  /** The configured RPC endpoints' circuits (none when the caller gave its own RPC). */
  rpcCircuits(): readonly { url: string; state: CircuitReading['state'] }[];
  readonly facilitators: FacilitatorDirectory;
  readonly facilitatorObserver: FacilitatorObserver | undefined;
  /** payTo's USDC account under each token program. */
  readonly destinations: Record<string, Address>;
  /** Whether the RPC serves pump.fun's creator search: scans choose their sources by it. */
  readonly serves: ServesMonitor;
  /** What the RPC can do, probed at start; null when not probed. */
  readonly capabilities: CapabilityMonitor | null;
  readonly verifiedTokens: VerifiedTokenList | null;
  /** The mode, its scanners judging impersonation by the verified-token list in use. */
  readonly mode: ServiceMode;
  /** The state a selling service keeps; null where it makes offers only. */
  readonly state: ServiceState | null;
  readonly signingKey: SigningKey;
}

/** The infrastructure of `options.mode`; a state or key that cannot be had stops the start. */
export async function openInfrastructure(config: Config, options: ServiceOptions): Promise<Infrastructure> {
  const log = options.log ?? createLogger(config.logLevel);
  const metrics = config.metricsPort === null ? null : createMetrics();
  const verifiedTokens = verifiedTokensOf(config, options.mode, log);
  const rpc = rpcOf(config, options, metrics);
  const facilitatorObserver = metrics
    ? createFacilitatorMetrics(metrics.registry, config.facilitatorUrls)
    : undefined;
  const facilitators = facilitatorsOf(config, options, log, facilitatorObserver);
  const destinations = await payToDestinations(address(config.payTo!));
  const mode = scanningWith(options.mode, verifiedTokens);
  // The state first, whose failures are named first; it loads the key to open the watches.
  const state = mode.kind === 'sells' ? await stateOf(config, mode, log) : null;
  const signingKey = state?.signingKey ?? (await loadSigningKey(config));
  return {
    log,
    metrics,
    ...rpc,
    facilitators,
    facilitatorObserver,
    destinations,
    serves: servesOf(config, rpc.rpc),
    capabilities: capabilitiesOf(config, options, rpc.rpc),
    verifiedTokens,
    mode,
    state,
    signingKey,
  };
}

function rpcOf(config: Config, options: ServiceOptions, metrics: Metrics | null) {
  if (options.rpc !== undefined) return { rpc: options.rpc, watchRpc: options.rpc, rpcCircuits: () => [] };
  const { stated, byUrl } = config.rpcRateLimit;
  const endpoints = createRpcEndpoints({
    urls: config.rpcUrls,
    timeoutMs: config.rpcTimeoutMs,
    breaker: config.rpcBreaker,
    rateLimits: config.rpcUrls.map((url) => byUrl[url] ?? stated),
    ...(metrics ? { observer: createRpcMetrics(metrics.registry, config.rpcUrls) } : {}),
  });
  return {
    rpc: endpoints.rpc,
    watchRpc: endpoints.watchRpc,
    rpcTransport: endpoints.transport,
    rpcCircuits: () => endpoints.circuits(),
  };
}

function facilitatorsOf(
  config: Config,
  options: ServiceOptions,
  log: Logger,
  observer: FacilitatorObserver | undefined,
): FacilitatorDirectory {
  return new FacilitatorDirectory({
    urls: config.facilitatorUrls,
    timeoutMs: config.facilitatorTimeoutMs,
    refreshMs: config.supportedRefreshMs,
    ...(options.facilitatorFetch ? { fetch: options.facilitatorFetch } : {}),
    onError: (url, message) => log.warn({ facilitator: url, reason: message }, 'facilitator unavailable'),
    ...(observer ? { observer } : {}),
  });
}

/** payTo's USDC account under each token program (USDC itself is SPL Token). */
async function payToDestinations(payTo: Address): Promise<Record<string, Address>> {
  const mint = address(USDC_MINT);
  const [token] = await findAssociatedTokenPda({ owner: payTo, mint, tokenProgram: TOKEN_PROGRAM });
  const [token2022] = await findAssociatedTokenPda({ owner: payTo, mint, tokenProgram: TOKEN_2022_PROGRAM });
  return { [TOKEN_PROGRAM]: token, [TOKEN_2022_PROGRAM]: token2022 };
}

/** The configured state, with the cache a caller gave in place of its own. */
async function stateOf(config: Config, selling: Selling, log: Logger): Promise<ServiceState> {
  const resolve = selling.watches?.resolve;
  const state = await openState(config, log, resolve ? { resolve } : {});
  return selling.cache ? { ...state, cache: selling.cache } : state;
}

/** Scans choose their sources from it (pump.fun creator history); never part of /health. */
function servesOf(config: Config, rpc: SolanaRpc): ServesMonitor {
  return createServesMonitor(
    () => probePumpCreatorSearch(rpc, Math.min(config.rpcTimeoutMs, CAPABILITY_PROBE_TIMEOUT_MS)),
    CAPABILITY_REPROBE_MS,
  );
}

function capabilitiesOf(config: Config, options: ServiceOptions, rpc: SolanaRpc): CapabilityMonitor | null {
  const probe = options.probeRpc ?? (config.mode === 'mainnet' && options.healthChecks === undefined);
  if (!probe) return null;
  return createCapabilityMonitor(
    () => probeRpcCapabilities(rpc, Math.min(config.rpcTimeoutMs, CAPABILITY_PROBE_TIMEOUT_MS)),
    CAPABILITY_REPROBE_MS,
  );
}

/** The verified-token list scans judge impersonation by, where one is configured and scans run. */
function verifiedTokensOf(config: Config, mode: ServiceMode, log: Logger): VerifiedTokenList | null {
  const { source } = config.verifiedTokens;
  if (source === null || mode.kind !== 'sells') return null;
  return new VerifiedTokenList({ source, stateDir: config.stateDir, log });
}

/** The mode with every scanner given the list's copy in use (paid scans and watches alike). */
function scanningWith(mode: ServiceMode, list: VerifiedTokenList | null): ServiceMode {
  if (list === null || mode.kind !== 'sells') return mode;
  return { ...mode, scanners: withVerifiedTokens(mode.scanners, () => list.current()) };
}
