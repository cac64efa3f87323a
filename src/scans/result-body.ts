/**
 * The body a paid call sells: the scan's result (cached or fresh) with the contract's
 * `cached`, `cached_at`, `version` and `request_id`, and `evidence.decision` (also on a result
 * cached before decisions were given), checked against the ScanResult schema. A batch's body is
 * one such result per subject sent, in its order, checked against the BatchResult schema.
 */
import type { PaidEndpoint } from '../catalog.js';
import { batchOfSubject } from '../contract/batch-order.js';
import { BatchResultSchema } from '../contract/batch-result.js';
import { ScanResultSchema } from '../contract/schemas.js';
import { reasonError } from '../errors.js';
import { reason } from '../reasons.js';
import { withDecision } from './risk/result.js';
import { BatchScanFailedError } from './scanner.js';
import type { ScanRun, ScanService } from './service.js';

/** A run as the body sold: the result with the contract's fields, checked (a malformed one is never sold). */
function paidResult(run: ScanRun, version: string, requestId: string) {
  const body = {
    ...withDecision(run.result),
    cached: run.cachedAt !== null,
    ...(run.cachedAt !== null ? { cached_at: run.cachedAt } : {}),
    version,
    request_id: requestId,
  };
  ScanResultSchema.parse(body);
  return body;
}

export function createResultProducer(scans: ScanService, version: string) {
  return async (
    endpoint: PaidEndpoint,
    subject: string,
    requestId: string,
    _resource?: string,
    maxAgeMs?: number,
  ): Promise<string> => {
    const run = await scans.run(endpoint.id, subject, maxAgeMs);
    return JSON.stringify(paidResult(run, version, requestId));
  };
}

/** A batch whose subjects could not all be scanned: a 500 naming them (nothing is settled). */
function batchFailed(e: unknown): unknown {
  if (!(e instanceof BatchScanFailedError)) return e;
  return reasonError(reason('batch_failed', { items: e.subjects.join(', ') }), {}, e);
}

/**
 * Produces a batch's body from its order (the paid call's subject): each distinct subject scanned
 * once, every subject sent answered at its place (a repeat by its first occurrence's result).
 */
export function createBatchProducer(scans: ScanService, version: string) {
  return async (subject: string, requestId: string): Promise<string> => {
    const order = batchOfSubject(subject);
    const distinct = [...new Set(order.subjects)];
    const runs = await scans.runBatch(order.kind, distinct).catch((e: unknown) => {
      throw batchFailed(e);
    });
    const bySubject = new Map(distinct.map((s, i) => [s, paidResult(runs[i]!, version, requestId)]));
    const body = {
      kind: order.kind,
      subjects: order.subjects.length,
      charged_items: distinct.length,
      request_id: requestId,
      results: order.subjects.map((s) => bySubject.get(s)!),
    };
    BatchResultSchema.parse(body);
    return JSON.stringify(body);
  };
}
