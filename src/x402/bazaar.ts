/**
 * The Bazaar discovery extension of each endpoint's v2 offer (coinbase/x402
 * `specs/extensions/bazaar.md`), built with `@x402/extensions`: a GET with one path parameter,
 * its schema, the ScanResult schema and an example, and `routeTemplate` (`/scan/token/:mint`) so
 * a catalog keeps one row per endpoint rather than one per subject. Plus the service metadata a
 * catalog shows on `resource`.
 *
 * The extension is the same for every request of an endpoint, so it is part of the offer template:
 * `pathParams` carries the endpoint's documented example, not the subject of one request.
 */
import {
  bazaarResourceServerExtension,
  declareDiscoveryExtension,
  isValidIconUrl,
} from '@x402/extensions/bazaar';
import { concretePath, honoPath, type PaidEndpoint, type PostEndpoint } from '../catalog.js';
import type { ScanResult } from '../contract/schemas.js';
import { DISCOVERY_PATHS, SERVICE_NAME } from '../identity.js';

/** Catalog tags: at most 5, each at most 32 printable ASCII characters (the spec's limits). */
export const BAZAAR_TAGS: readonly string[] = ['solana', 'security', 'risk-scan', 'tokens', 'wallets'];

/** What `resource` says about the service besides the URL. */
export interface ServiceMetadata {
  readonly serviceName: string;
  readonly tags: string[];
  readonly iconUrl?: string;
}

/**
 * The service metadata for offers. The icon is named only from a configured public origin: a
 * request's own origin may be a loopback or IP host, which the spec's icon rules refuse.
 */
export function serviceMetadata(publicBaseUrl: string | null): ServiceMetadata {
  const iconUrl = publicBaseUrl === null ? undefined : publicBaseUrl + DISCOVERY_PATHS.favicon;
  return {
    serviceName: SERVICE_NAME,
    tags: [...BAZAAR_TAGS],
    ...(iconUrl !== undefined && isValidIconUrl(iconUrl) ? { iconUrl } : {}),
  };
}

/** An example result, as a catalog shows it next to the schema. */
export function scanResultExample(endpoint: PaidEndpoint): ScanResult {
  return {
    risk_score: 0.12,
    flags: [],
    confidence: 0.95,
    summary: `${endpoint.summary}: no significant risk found.`,
    recommendation: 'No action needed.',
    reasoning: endpoint.assesses.map((what) => `Checked ${what}: nothing of concern.`),
  };
}

/** An example of what an endpoint answers: a batch's answer holds one example result per subject. */
export function answerExample(endpoint: PaidEndpoint): Record<string, unknown> {
  if (endpoint.producer !== 'batch' || endpoint.method !== 'POST') return { ...scanResultExample(endpoint) };
  const { example } = endpoint.body;
  const subjects = (example.subjects ?? []) as readonly string[];
  return {
    kind: example.kind,
    subjects: subjects.length,
    charged_items: new Set(subjects).size,
    request_id: '00000000-0000-4000-8000-000000000000',
    results: subjects.map(() => scanResultExample(endpoint)),
  };
}

/**
 * The `bazaar` extension of an endpoint, enriched as the x402 resource server enriches it for a
 * GET of the endpoint's route (method, `routeTemplate`, `pathParams`), at the documented example.
 */
export function bazaarExtension(
  endpoint: PaidEndpoint,
  outputSchema: Record<string, unknown>,
): Record<string, unknown> {
  if (endpoint.method === 'POST') return bodyBazaarExtension(endpoint, outputSchema);
  const { name, description, example } = endpoint.param;
  const { bazaar } = declareDiscoveryExtension({
    pathParams: { [name]: example },
    pathParamsSchema: {
      properties: { [name]: { type: 'string', description } },
      required: [name],
    },
    output: { example: answerExample(endpoint), schema: outputSchema },
  });
  const context = {
    method: 'GET',
    routePattern: honoPath(endpoint.path),
    adapter: { getPath: () => concretePath(endpoint, example) },
  };
  return bazaarResourceServerExtension.enrichDeclaration!(bazaar, context) as Record<string, unknown>;
}

/** A POST with a JSON body: the body's example and schema as the input (the spec's body form). */
function bodyBazaarExtension(
  endpoint: PostEndpoint,
  outputSchema: Record<string, unknown>,
): Record<string, unknown> {
  const { bazaar } = declareDiscoveryExtension({
    bodyType: 'json',
    input: { ...endpoint.body.example },
    inputSchema: { ...endpoint.body.schema } as Record<string, unknown>,
    output: { example: answerExample(endpoint), schema: outputSchema },
  });
  const context = { method: 'POST', routePattern: endpoint.path, adapter: { getPath: () => endpoint.path } };
  return bazaarResourceServerExtension.enrichDeclaration!(bazaar, context) as Record<string, unknown>;
}
