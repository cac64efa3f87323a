/** Reads Prometheus exposition text (what GET /metrics serves) for exact assertions. */

export type Labels = Record<string, string>;

export interface Sample {
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

/** Every sample of the exposition text, as name, labels and value. */
export function samples(text: string): Sample[] {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels: Labels = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the sample `name` with exactly `labels` (0 when absent: not yet counted). */
export function sampleValue(text: string, name: string, labels: Labels = {}): number {
  const wanted = Object.entries(labels);
  const found = samples(text).find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === wanted.length &&
      wanted.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

/** The sum of every sample `name` whose labels include `labels` (others free). */
export function sampleSum(text: string, name: string, labels: Labels = {}): number {
  const wanted = Object.entries(labels);
  return samples(text)
    .filter((s) => s.name === name && wanted.every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
