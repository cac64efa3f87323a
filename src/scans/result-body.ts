/**
 * The body a paid call sells: the scan's result (cached or fresh) with the contract's
 * `cached`, `cached_at`, `version` and `request_id`, checked against the ScanResult schema.
 */
import type { PaidEndpoint } from '../catalog.js';
import { ScanResultSchema } from '../contract/schemas.js';
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
      ...run.result,
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
