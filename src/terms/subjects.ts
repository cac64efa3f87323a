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

/** What a kind may be marked in the table. */
type Mark = 'watchable' | 'batchable';

/** The kinds marked `mark`. */
type KindMarked<M extends Mark> = {
  [K in SubjectKind]: (typeof SUBJECT_KINDS)[K][M] extends true ? K : never;
}[SubjectKind];

/** The kinds marked `mark`, in the table's order (never empty: zod's enum asks a tuple). */
function kindsMarked<M extends Mark>(mark: M): [KindMarked<M>, ...KindMarked<M>[]] {
  const marked = (Object.keys(SUBJECT_KINDS) as SubjectKind[]).filter((kind) => SUBJECT_KINDS[kind][mark]);
  return marked as [KindMarked<M>, ...KindMarked<M>[]];
}

/** The kinds a watch can follow. */
export type WatchKind = KindMarked<'watchable'>;
export const WATCH_KINDS = kindsMarked('watchable');

/** The kinds a batch can scan (POST /scan/batch). */
export type BatchKind = KindMarked<'batchable'>;
export const BATCH_KINDS = kindsMarked('batchable');
