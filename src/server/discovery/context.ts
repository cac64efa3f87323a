/** What every discovery document is generated from, besides the catalog. */
import type { Mode } from '../../config.js';
import type { ServiceMetadata } from '../../x402/bazaar.js';

export { DISCOVERY_PATHS, SERVICE_DESCRIPTION, SERVICE_NAME } from '../../identity.js';

/** The MCP endpoint as discovery names it, given as data by the composition root. */
export interface McpFacts {
  readonly path: string;
  /** Every tool: a paid one with its endpoint's path and price, a free one with path null and price 0. */
  readonly tools: readonly {
    readonly name: string;
    readonly path: string | null;
    readonly priceUsd: number;
    /** Set for a tool priced per hour or per item. */
    readonly per?: 'hour' | 'item';
  }[];
}

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
  readonly mcp: McpFacts;
  /** BATCH_DISCOUNT_PERCENT: the discount on prices per item, which every price shown applies. */
  readonly discountPercent: number;
}
