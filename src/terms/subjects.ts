/**
 * The subjects a scan is about, spelled once. Each GET endpoint scans one kind (its id is the
 * kind), the sandbox seeds scenarios of these kinds, and a watch follows the kinds marked
 * `watchable`: the address kinds whose GET scan gives the verdict watched; a batch scans the kinds
 * marked `batchable` (POST /scan/batch). The order is the order POST /watch and POST /scan/batch
 * list their kinds in.
 */

/** What a path parameter must decode to: a 32-byte address or a 64-byte signature. */
export type ParamKind = 'address' | 'signature';

export const SUBJECT_KINDS = {
  token: { watchable: true, batchable: true },
  pumpfun: { watchable: true, batchable: true },
  wallet: { watchable: true, batchable: true },
  tx: { watchable: false, batchable: false },
  program: { watchable: true, batchable: false },
} as const satisfies Readonly<Record<string, { readonly watchable: boolean; readonly batchable: boolean }>>;

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

/** The kinds a batch can scan (POST /scan/batch). */
export type BatchKind = {
  [K in SubjectKind]: (typeof SUBJECT_KINDS)[K]['batchable'] extends true ? K : never;
}[SubjectKind];

const isBatchable = (kind: SubjectKind): kind is BatchKind => SUBJECT_KINDS[kind].batchable;

/** The kinds a batch can scan, in the table's order. */
export const BATCH_KINDS = (Object.keys(SUBJECT_KINDS) as SubjectKind[]).filter(isBatchable) as [
  BatchKind,
  ...BatchKind[],
];
