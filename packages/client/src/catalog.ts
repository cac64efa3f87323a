/**
 * What each call costs by the service's catalog (generated/catalog.ts, written from the
 * service's own src/catalog.ts): the most the client pays for it, whatever a 402 asks.
 */
import { ENDPOINTS, MAX_WATCH_HOURS } from './generated/catalog.js';

export type EndpointId = (typeof ENDPOINTS)[number]['id'];
type Endpoint = (typeof ENDPOINTS)[number];

/** The kinds a batch scans (POST /scan/batch): those its catalog entry prices per item. */
export type BatchKind = keyof Extract<Endpoint, { priceUsdPerItem: unknown }>['priceUsdPerItem'];

export const endpoint = (id: EndpointId): Endpoint => ENDPOINTS.find((e) => e.id === id)!;

/** '/scan/token/{mint}' with a value → '/scan/token/<value>' (the value made safe for a path). */
export function pathOf(id: EndpointId, value?: string): string {
  return endpoint(id).path.replace(/\{\w+\}/, encodeURIComponent(value ?? ''));
}

const units = (usd: number) => BigInt(Math.round(usd * 1e6));

/** The hours of a watch order, when they are a whole number the service takes. */
function orderHours(body: string | undefined): number | null {
  try {
    const hours = (JSON.parse(body ?? 'null') as { hours?: unknown } | null)?.hours;
    return Number.isInteger(hours) && (hours as number) >= 1 && (hours as number) <= MAX_WATCH_HOURS
      ? (hours as number)
      : null;
  } catch {
    return null;
  }
}

/** The endpoint a request is a call of, by its method and path, or undefined (not a paid endpoint). */
export function endpointOf(method: 'GET' | 'POST', path: string): Endpoint | undefined {
  const bare = path.split(/[?#]/)[0]!;
  return ENDPOINTS.find((e) => {
    if (e.method !== method) return false;
    const pattern = new RegExp(`^${e.path.replace(/\{\w+\}/, '[^/]+')}$`);
    return pattern.test(bare);
  });
}

/** A batch order's price: its distinct subjects at their kind's price; null for a body the service refuses. */
function batchUnits(prices: Readonly<Record<string, number>>, body: string | undefined): bigint | null {
  try {
    const order = JSON.parse(body ?? 'null') as { kind?: unknown; subjects?: unknown } | null;
    const price = typeof order?.kind === 'string' ? prices[order.kind] : undefined;
    if (price === undefined || !Array.isArray(order?.subjects)) return null;
    return units(price) * BigInt(new Set(order.subjects).size);
  } catch {
    return null;
  }
}

/** What a call costs by the catalog, in USDC's atomic units; null when the catalog does not price it. */
export function catalogUnits(method: 'GET' | 'POST', path: string, body?: string): bigint | null {
  const found = endpointOf(method, path);
  if (found === undefined) return null;
  if ('priceUsd' in found) return units(found.priceUsd);
  if ('priceUsdPerItem' in found) return batchUnits(found.priceUsdPerItem, body);
  const hours = orderHours(body);
  return hours === null ? null : units(found.priceUsdPerHour * hours);
}
