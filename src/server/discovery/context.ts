/** What every discovery document is generated from, besides the catalog. */
import type { Mode } from '../../config.js';
import type { ServiceMetadata } from '../../x402/bazaar.js';

export { DISCOVERY_PATHS, SERVICE_DESCRIPTION, SERVICE_NAME } from '../../identity.js';

export interface DiscoveryContext {
  /** Absolute origin, no trailing slash. */
  readonly origin: string;
  readonly mode: Mode;
  readonly payTo: string;
  readonly facilitatorIds: readonly string[];
  /** Fee payer of the facilitator currently advertised, if any. */
  readonly feePayer: string | null;
  readonly serviceVersion: string;
  /** How long a payment's transaction may take, as the live offers say (MAX_TIMEOUT_SECONDS). */
  readonly maxTimeoutSeconds: number;
  /** Service name, tags and icon, as the live v2 offers name them on `resource`. */
  readonly service: ServiceMetadata;
  /** CONTACT_EMAIL: the operator's address, or null when none is configured. */
  readonly contactEmail: string | null;
}
