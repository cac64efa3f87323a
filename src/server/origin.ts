/** The absolute origin used in `resource` URLs and discovery links. */

/** PUBLIC_BASE_URL when configured, else the origin the request was addressed to. */
export function requestOrigin(publicBaseUrl: string | null, requestUrl: string): string {
  if (publicBaseUrl !== null) return publicBaseUrl;
  // requestUrl is absolute ("http://host:port/path"); cheaper than new URL() on the hot path.
  const pathStart = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2);
  return pathStart === -1 ? requestUrl : requestUrl.slice(0, pathStart);
}

/**
 * A small memo keyed by origin. Host headers are caller-controlled, so the map is bounded
 * and simply cleared when full: a flood of odd hosts costs recomputation, never memory.
 */
export class OriginMemo<T> {
  private readonly entries = new Map<string, T>();
  private stamp = -1;

  constructor(private readonly limit = 32) {}

  get(origin: string, stamp: number, build: () => T): T {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    let value = this.entries.get(origin);
    if (value === undefined) {
      if (this.entries.size >= this.limit) this.entries.clear();
      value = build();
      this.entries.set(origin, value);
    }
    return value;
  }
}
