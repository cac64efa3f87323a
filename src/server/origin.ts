/** The absolute origin used in `resource` URLs and discovery links. */

/**
 * Where the path of an absolute URL ("http://host:port/path?query") starts: the URL's length
 * when it has none. Cheaper than new URL() on the hot paths.
 */
export function pathStartOf(absoluteUrl: string): number {
  const start = absoluteUrl.indexOf('/', absoluteUrl.indexOf('//') + 2);
  return start === -1 ? absoluteUrl.length : start;
}

/** PUBLIC_BASE_URL when configured, else the origin the request was addressed to. */
export function requestOrigin(publicBaseUrl: string | null, requestUrl: string): string {
  if (publicBaseUrl !== null) return publicBaseUrl;
  return requestUrl.slice(0, pathStartOf(requestUrl));
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
