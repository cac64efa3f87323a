/** The evaluation as a plain-text table per endpoint, and as JSON. Pure. */
import type { Bucket } from '../scans/risk/combine.js';
import type { LabelledSubject } from './labels.js';
import {
  BAD_LABELS,
  type EndpointReport,
  GOOD_LABELS,
  HIGH_RISK_BUCKETS,
  type LabelReport,
  type Scored,
} from './metrics.js';

const BUCKETS: readonly Bucket[] = ['proceed', 'caution', 'avoid', 'do_not_interact'];
const FLAGS_PER_LABEL = 5;

const num = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits));
const ratio = (n: number, d: number) => `${n}/${d}`;

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map(
    (r) =>
      indent +
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
  );
}

function labelRows(labels: readonly LabelReport[]): string[] {
  return table([
    ['label', 'class', 'n', 'min', 'median', 'max', ...BUCKETS],
    ...labels.map((l) => [
      l.label,
      l.class,
      String(l.distribution.n),
      num(l.distribution.min),
      num(l.distribution.median),
      num(l.distribution.max),
      ...BUCKETS.map((b) => String(l.distribution.buckets[b])),
    ]),
  ]);
}

function endpointText(r: EndpointReport): string[] {
  const h = r.high_risk;
  const lines = [
    `${r.path}: ${r.subjects} subjects, ${r.scanned} scanned, ${r.errors.length} failed`,
    `  high-risk bucket (${HIGH_RISK_BUCKETS.join(' + ')}) against bad labels: precision ${num(h.precision)} (${ratio(h.tp, h.tp + h.fp)} flagged are bad), recall ${num(h.recall)} (${ratio(h.tp, h.tp + h.fn)} bad are flagged); TP ${h.tp} FP ${h.fp} FN ${h.fn} TN ${h.tn}`,
    '  scores by label:',
    ...labelRows(r.labels).map((l) => `  ${l}`),
    `  most frequent flags by label (subjects carrying it / scanned):`,
    ...r.labels
      .filter((l) => l.distribution.n > 0)
      .map(
        (l) =>
          `    ${l.label}: ${
            l.flags
              .slice(0, FLAGS_PER_LABEL)
              .map((f) => `${f.flag} ${ratio(f.count, l.distribution.n)}`)
              .join(', ') || 'no flags'
          }`,
      ),
    '  flags that separate bad from good (share among bad − share among good):',
    ...(r.separating_flags.length === 0
      ? ['    none (needs scanned subjects labelled both bad and good)']
      : table(
          r.separating_flags.map((s) => [
            s.flag,
            `${s.difference > 0 ? '+' : ''}${s.difference.toFixed(2)}`,
            `bad ${num(s.bad_rate)}`,
            `good ${num(s.good_rate)}`,
          ]),
          '    ',
        )),
  ];
  if (r.errors.length > 0)
    lines.push(
      '  failed subjects:',
      ...r.errors.map((e) => `    line ${e.line} ${e.address} (${e.label}): ${e.error}`),
    );
  return lines;
}

export function reportText(
  reports: readonly EndpointReport[],
  source: { labels: string; rpc: string },
): string {
  const header = [
    `Evaluation of ${source.labels} against ${source.rpc}`,
    `bad labels: ${BAD_LABELS.join(', ')}; good labels: ${GOOD_LABELS.join(', ')}; other labels are shown but not counted`,
  ];
  return [...header, ...reports.flatMap((r) => ['', ...endpointText(r)])].join('\n');
}

const subjectJson = ({ subject, outcome }: Scored) => {
  const s: LabelledSubject = subject;
  return {
    line: s.line,
    kind: s.endpoint,
    address: s.address,
    label: s.label,
    note: s.note,
    ...s.extra,
    ...(outcome.ok
      ? { risk_score: outcome.score, confidence: outcome.confidence, flags: outcome.flags }
      : { error: outcome.error }),
  };
};

export function reportJson(
  reports: readonly EndpointReport[],
  scored: readonly Scored[],
  source: { labels: string; rpc: string },
) {
  return {
    labels_file: source.labels,
    rpc: source.rpc,
    bad_labels: BAD_LABELS,
    good_labels: GOOD_LABELS,
    high_risk_buckets: HIGH_RISK_BUCKETS,
    endpoints: reports,
    subjects: scored.map(subjectJson),
  };
}
