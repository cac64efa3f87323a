/**
 * The body a paid call sells: the scan's result (cached or fresh) with the contract's
 * `cached`, `cached_at`, `version` and `request_id`, and `evidence.decision` (also on a result
 * cached before decisions were given), checked against the ScanResult schema.
 */
import type { PaidEndpoint } from '../catalog.js';
import { ScanResultSchema } from '../contract/schemas.js';
import { withDecision } from './risk/result.js';
import type { ScanService } from './service.js';

export function createResultProducer(scans: ScanService, version: string) {
  return async (
    endpoint: PaidEndpoint,
    subject: string,
    requestId: string,
    _resource?: string,
    maxAgeMs?: number,
  ): Promise<string> => {
    const run = await scans.run(endpoint.id, subject, maxAgeMs);
    const body = {
      ...withDecision(run.result),
      cached: run.cachedAt !== null,
      ...(run.cachedAt !== null ? { cached_at: run.cachedAt } : {}),
      version,
      request_id: requestId,
    };
    // A malformed result is a failed scan: it is never sold.
    ScanResultSchema.parse(body);
    return JSON.stringify(body);
  };
}
