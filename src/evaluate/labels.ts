/**
 * The labelled list `risk-scan evaluate` reads: CSV, one subject a line, `kind,address,label`
 * and an optional `note`. A first line naming the columns (`kind` and `address` among them) may
 * order them differently and add columns of its own (e.g. `source`, kept with the subject). `#` starts a
 * comment line. Pure: text in, subjects or a LabelsError naming the line out.
 */
import { GET_ENDPOINTS, type GetEndpoint, type ScanId } from '../catalog.js';
import { paramReason } from '../contract/schemas.js';

export interface LabelledSubject {
  readonly endpoint: ScanId;
  /** An address, or a transaction signature for `tx`. */
  readonly address: string;
  readonly label: string;
  readonly note: string;
  /** Columns beyond the four, by header name (e.g. `source`). */
  readonly extra: Readonly<Record<string, string>>;
  /** 1-based line in the file, for messages. */
  readonly line: number;
}

export class LabelsError extends Error {
  override readonly name = 'LabelsError';
}

const REQUIRED = ['kind', 'address', 'label'] as const;
const LABEL = /^[a-z0-9][a-z0-9_-]*$/;

/** The GET endpoint a list's `kind` names: its id, operationId, path or path prefix. */
function getEndpointOf(kind: string): GetEndpoint | null {
  const k = kind.trim().toLowerCase();
  const names = (e: GetEndpoint) => [e.id, e.operationId, e.path, e.path.slice(0, e.path.indexOf('/{'))];
  return GET_ENDPOINTS.find((e) => names(e).some((name) => name.toLowerCase() === k)) ?? null;
}

/** `token`, `scanToken`, `/scan/token` or `/scan/token/{mint}` → `token`. */
export function endpointOf(kind: string): ScanId | null {
  return getEndpointOf(kind)?.id ?? null;
}

/** One CSV line's fields: commas separate, double quotes quote ("" is a quote). */
function fields(line: string, at: number): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted) {
      if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (c === ',') {
      out.push(field.trim());
      field = '';
    } else field += c;
  }
  if (quoted) throw new LabelsError(`line ${at}: a quoted field is not closed`);
  out.push(field.trim());
  return out;
}

function subjectOf(values: string[], columns: readonly string[], line: number): LabelledSubject {
  if (values.length < 3 || values.length > columns.length)
    throw new LabelsError(
      `line ${line}: ${values.length} fields; expected ${columns.length > 4 ? `3 to ${columns.length}` : '3 or 4'} (${columns.join(',')})`,
    );
  const byName = Object.fromEntries(columns.map((c, i) => [c, values[i] ?? '']));
  const found = getEndpointOf(byName.kind!);
  if (found === null)
    throw new LabelsError(
      `line ${line}: kind ${JSON.stringify(byName.kind)} is not an endpoint (one of ${GET_ENDPOINTS.map((e) => e.id).join(', ')})`,
    );
  const endpoint = found.id;
  const problem = paramReason(`the ${endpoint} subject`, found.param.kind, byName.address!);
  if (problem !== null) throw new LabelsError(`line ${line}: ${problem.text}`);
  const label = byName.label!.toLowerCase();
  if (!LABEL.test(label))
    throw new LabelsError(
      `line ${line}: label ${JSON.stringify(byName.label)} must be one word of letters, digits, - or _`,
    );
  const extra = Object.fromEntries(
    columns.filter((c) => !['kind', 'address', 'label', 'note'].includes(c)).map((c) => [c, byName[c]!]),
  );
  return { endpoint, address: byName.address!, label, note: byName.note ?? '', extra, line };
}

/** Every labelled subject in `text`, in file order; throws LabelsError at the first bad line. */
export function parseLabels(text: string): LabelledSubject[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let columns: readonly string[] = ['kind', 'address', 'label', 'note'];
  const subjects: LabelledSubject[] = [];
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const values = fields(raw, line);
    const names = values.map((v) => v.toLowerCase());
    if (subjects.length === 0 && names.includes('kind') && names.includes('address')) {
      columns = names;
      const missing = REQUIRED.filter((c) => !columns.includes(c));
      if (missing.length > 0) throw new LabelsError(`line ${line}: the header lacks ${missing.join(', ')}`);
      return;
    }
    subjects.push(subjectOf(values, columns, line));
  });
  if (subjects.length === 0)
    throw new LabelsError('no labelled subject: expected lines of kind,address,label[,note]');
  return subjects;
}
