/**
 * The subjects a scan is about, spelled once. Each GET endpoint scans one kind (its id is the
 * kind), the sandbox seeds scenarios of these kinds, and a watch follows the kinds marked
 * `watchable`: the address kinds whose GET scan gives the verdict watched. The order is the
 * order POST /watch lists its kinds in.
 */

/** What a path parameter must decode to: a 32-byte address or a 64-byte signature. */
export type ParamKind = 'address' | 'signature';

export const SUBJECT_KINDS = {
  token: { watchable: true },
  pumpfun: { watchable: true },
  wallet: { watchable: true },
  tx: { watchable: false },
  program: { watchable: true },
} as const satisfies Readonly<Record<string, { readonly watchable: boolean }>>;

export type SubjectKind = keyof typeof SUBJECT_KINDS;

/** The kinds a watch can follow. */
export type WatchKind = {
  [K in SubjectKind]: (typeof SUBJECT_KINDS)[K]['watchable'] extends true ? K : never;
}[SubjectKind];

const isWatchable = (kind: SubjectKind): kind is WatchKind => SUBJECT_KINDS[kind].watchable;

/** The kinds a watch can follow, in the table's order (never empty: zod's enum asks a tuple). */
export const WATCH_KINDS = (Object.keys(SUBJECT_KINDS) as SubjectKind[]).filter(isWatchable) as [
  WatchKind,
  ...WatchKind[],
];
