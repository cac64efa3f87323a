/**
 * Counters and histograms whose hot path is a plain field update. prom-client's own label
 * children hash and validate their labels on every call (about 1 µs each on this project's
 * machines), too much for something on every RPC read; here each series is bound once, and its
 * values reach the registry (as prom-client's metric contract: name, help, type, values) only
 * when it is scraped.
 */
import type { Metric, Registry } from 'prom-client';

export type SeriesLabels = Readonly<Record<string, string>>;

export interface Tally {
  inc(): void;
}

export interface Timing {
  observe(seconds: number): void;
}

interface Value {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

/** Registers a metric whose samples `values` computes at each scrape. */
function register(
  registry: Registry,
  described: { name: string; help: string; type: 'counter' | 'histogram' },
  values: () => Value[],
  reset: () => void,
): void {
  const metric = {
    ...described,
    aggregator: 'sum' as const,
    get: async () => ({ ...described, aggregator: 'sum' as const, values: values() }),
    reset,
  };
  registry.registerMetric(metric as unknown as Metric);
}

/** A counter; `bind(labels)` gives the tally of one series (bind each label set once). */
export function tallyCounter(
  registry: Registry,
  described: { name: string; help: string },
): (labels: SeriesLabels) => Tally {
  const series: { labels: SeriesLabels; count: number }[] = [];
  register(
    registry,
    { ...described, type: 'counter' },
    () => series.map((s) => ({ labels: { ...s.labels }, value: s.count })),
    () => {
      for (const s of series) s.count = 0;
    },
  );
  return (labels) => {
    const s = { labels, count: 0 };
    series.push(s);
    return {
      inc: () => {
        s.count++;
      },
    };
  };
}

interface HistogramSeries {
  readonly labels: SeriesLabels;
  /** Observations per bucket, not cumulative; the last slot is past the highest bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

function histogramValues(name: string, bounds: readonly number[], s: HistogramSeries): Value[] {
  let cumulative = 0;
  const buckets = bounds.map((le, i) => {
    cumulative += s.counts[i]!;
    return { labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` };
  });
  return [
    ...buckets,
    { labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${name}_bucket` },
    { labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` },
    { labels: { ...s.labels }, value: s.count, metricName: `${name}_count` },
  ];
}

/** A histogram over `buckets` (ascending upper bounds); `bind(labels)` gives one series' timing. */
export function tallyHistogram(
  registry: Registry,
  described: { name: string; help: string; buckets: readonly number[] },
): (labels: SeriesLabels) => Timing {
  const { name, help, buckets } = described;
  const series: HistogramSeries[] = [];
  register(
    registry,
    { name, help, type: 'histogram' },
    () => series.flatMap((s) => histogramValues(name, buckets, s)),
    () => {
      for (const s of series) {
        s.counts.fill(0);
        s.sum = 0;
        s.count = 0;
      }
    },
  );
  return (labels) => {
    const s: HistogramSeries = { labels, counts: new Array(buckets.length + 1).fill(0), sum: 0, count: 0 };
    series.push(s);
    return {
      observe: (seconds) => {
        let i = 0;
        while (i < buckets.length && seconds > buckets[i]!) i++;
        s.counts[i]!++;
        s.sum += seconds;
        s.count++;
      },
    };
  };
}
