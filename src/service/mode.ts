/**
 * What a service is asked to be, said by its caller rather than read from which options
 * happen to be present.
 */
import type { ScanId } from '../catalog.js';
import type { HealthCheck } from '../health.js';
import type { CacheStore } from '../scans/cache-store.js';
import type { Scanner } from '../scans/scanner.js';
import type { Logger } from '../server/logger.js';
import type { SolanaRpc } from '../solana/rpc.js';
import type { WatchState } from '../watch/model.js';
import type { ResolveHost } from '../watch/webhook-url.js';

export type Scanners = Readonly<Partial<Record<ScanId, Scanner>>>;

/** What a selling service runs on; the parts a caller (a test, a bench) may give instead of its own. */
export interface Selling {
  /** The scanner of each paid endpoint it sells. */
  readonly scanners: Scanners;
  /**
   * The watches' state, when not the one opened beside the payments, and the resolver the SSRF
   * guard of their webhooks asks (tests inject one; default the system's).
   */
  readonly watches?: { readonly state?: WatchState; readonly resolve?: ResolveHost };
  /** The result cache, when not the state's (a bench turns caching off). */
  readonly cache?: CacheStore;
}

export type ServiceMode =
  /**
   * Makes offers (402), serves discovery, docs and /health, and takes no payment: no scanner
   * runs and no payment state is opened (its signing key is still loaded, for the JWKS).
   */
  | { readonly kind: 'offers' }
  /**
   * Takes payments: sells its scanners' results, and watches (POST /watch, GET and DELETE
   * /watch/{id}) kept beside the payments in the state opened from the configuration.
   */
  | ({ readonly kind: 'sells' } & Selling);

export const OFFERS_ONLY: ServiceMode = { kind: 'offers' };

export function selling(scanners: Scanners, given: Omit<Selling, 'scanners'> = {}): ServiceMode {
  return { kind: 'sells', scanners, ...given };
}

/** How a service is built: its mode, and what a caller replaces of its infrastructure. */
export interface ServiceOptions {
  readonly mode: ServiceMode;
  readonly log?: Logger;
  /** For fault-injection tests: the fetch used to reach facilitators. */
  readonly facilitatorFetch?: typeof fetch;
  /** Replaces the RPC client (e.g. with a counting or failing transport). */
  readonly rpc?: SolanaRpc;
  /** Replaces the default dependency checks (RPC). */
  readonly healthChecks?: Readonly<Record<string, HealthCheck>>;
  /**
   * Probe at start() which methods the RPC serves, and list them on /health
   * (`rpc_capabilities`). Default: in mainnet mode, unless `healthChecks` are replaced.
   */
  readonly probeRpc?: boolean;
}
