/**
 * The shape of one getTransaction answer (encoding "json") as far as the scans read it: launch
 * forensics (token/launch) and creator history (creator-history) both parse with it. Numbers may
 * arrive as bigint (kit's RPC) or number (recorded JSON).
 */
import { z } from 'zod';

// An integer only: BigInt(1.5) would throw out of safeParse instead of failing the parse.
export const int = z.union([z.number().int(), z.bigint()]).transform((v) => BigInt(v));
export const instruction = z.object({ programIdIndex: int, accounts: z.array(int), data: z.string() });
export const tokenBalance = z.object({
  accountIndex: int,
  mint: z.string(),
  owner: z.string().optional(),
  uiTokenAmount: z.object({ amount: z.string() }),
});

/** A getTransaction answer (encoding "json"), as far as the scans read it. */
export const transactionSchema = z.object({
  slot: int,
  blockTime: int.nullable().optional(),
  transaction: z.object({
    signatures: z.array(z.string()).min(1),
    message: z.object({
      header: z.object({ numRequiredSignatures: int }),
      accountKeys: z.array(z.string()).min(1),
      instructions: z.array(instruction),
    }),
  }),
  meta: z.object({
    err: z.unknown(),
    preBalances: z.array(int),
    postBalances: z.array(int),
    innerInstructions: z
      .array(z.object({ instructions: z.array(instruction) }))
      .nullable()
      .optional(),
    preTokenBalances: z.array(tokenBalance).nullable().optional(),
    postTokenBalances: z.array(tokenBalance).nullable().optional(),
    loadedAddresses: z
      .object({ writable: z.array(z.string()), readonly: z.array(z.string()) })
      .nullable()
      .optional(),
  }),
});

/** A getSignaturesForAddress answer as the scans read it: entries, each with its signature. */
export interface SignatureEntry {
  readonly signature: string;
  readonly err: unknown;
  readonly blockTime?: bigint | number | null;
  /** How final its slot was when the page was read (`finalized`: it can no longer change). */
  readonly confirmationStatus?: string | null;
}

/** What a page entry's blockTime may be (null, as absent, is allowed too). */
const BLOCK_TIME_TYPES = new Set(['bigint', 'number', 'undefined']);

/** Whether an answer is such a page (a malformed one is named as unavailable, never read). */
export function isSignaturePage(value: unknown): value is readonly SignatureEntry[] {
  return (
    Array.isArray(value) &&
    value.every(
      (s) => typeof s?.signature === 'string' && BLOCK_TIME_TYPES.has(typeof (s.blockTime ?? undefined)),
    )
  );
}

/** Every key the instructions index (lookup tables' too) and every instruction, inner ones included. */
export function keysAndInstructions(parsed: z.infer<typeof transactionSchema>) {
  const message = parsed.transaction.message;
  // Indexes in meta count the static keys, then the lookup tables' writable, then readonly ones.
  const loaded = parsed.meta.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const instructions = [
    ...message.instructions,
    ...(parsed.meta.innerInstructions ?? []).flatMap((set) => set.instructions),
  ];
  return { keys, instructions };
}
