/**
 * Pure: one transaction of a creator's own history (getTransaction, encoding "json") → the coins it
 * created and how its balance of each coin moved. A coin is "created" by a transaction when:
 *  - it invokes pump.fun's `create` or `create_v2` (top level or inner; the mint is the
 *    instruction's first account), or
 *  - the creator signed it and it initialized a mint (SPL Token or Token-2022 InitializeMint /
 *    InitializeMint2, top level or inner): what pump's create leaves in the token program too, and
 *    what the sandbox's emulated creates leave (it has no pump program body).
 * Either way the mint is only a candidate: it counts as a launch once its bonding curve is read and
 * names the creator (history.ts). Balance moves come from pre/postTokenBalances of the creator's
 * accounts; a closed account has no post balance, so closing it counts what it held as gone.
 */
import bs58 from 'bs58';
import type { z } from 'zod';
import { PUMP_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import { type instruction, keysAndInstructions, transactionSchema } from '../token-facts/transaction-json.js';

/** pump.fun's instruction discriminators (IDL, pump-fun/pump-public-docs). */
const CREATE = [24, 30, 200, 40, 5, 28, 7, 119];
const CREATE_V2 = [214, 144, 76, 236, 95, 139, 49, 180];
/** SPL Token (and Token-2022) instruction tags: InitializeMint, InitializeMint2. */
const INITIALIZE_MINT_TAGS = new Set([0, 20]);

export interface CreatorTransaction {
  readonly signature: string;
  readonly blockTime: number | null;
  /** Mints this transaction created (candidates until their curve names the creator). */
  readonly created: readonly string[];
  /** The creator's net token balance change per mint (base units; negative = sold or sent away). */
  readonly moves: ReadonlyMap<string, bigint>;
}

type Instruction = z.infer<typeof instruction>;

const startsWith = (data: Uint8Array, prefix: readonly number[]) =>
  data.length >= prefix.length && prefix.every((b, i) => data[i] === b);

function createdMint(ix: Instruction, keys: readonly string[], creatorSigned: boolean): string | null {
  const program = keys[Number(ix.programIdIndex)];
  const first = keys[Number(ix.accounts[0] ?? -1n)];
  if (first === undefined) return null;
  // An answer whose instruction data is not base58 is not read as a transfer or a creation.
  const data = bs58.decodeUnsafe(ix.data);
  if (data === undefined) return null;
  if (program === PUMP_PROGRAM) return startsWith(data, CREATE) || startsWith(data, CREATE_V2) ? first : null;
  const token = program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM;
  return token && creatorSigned && INITIALIZE_MINT_TAGS.has(data[0] ?? -1) ? first : null;
}

type Balances = z.infer<typeof transactionSchema>['meta']['preTokenBalances'];

function balanceMoves(pre: Balances, post: Balances, creator: string): Map<string, bigint> {
  const moves = new Map<string, bigint>();
  const add = (mint: string, amount: bigint) => moves.set(mint, (moves.get(mint) ?? 0n) + amount);
  for (const b of post ?? []) if (b.owner === creator) add(b.mint, BigInt(b.uiTokenAmount.amount));
  for (const b of pre ?? []) if (b.owner === creator) add(b.mint, -BigInt(b.uiTokenAmount.amount));
  for (const [mint, amount] of moves) if (amount === 0n) moves.delete(mint);
  return moves;
}

/** The transaction as creator history reads it, or null when it is unreadable or failed. */
export function decodeCreatorTransaction(raw: unknown, creator: string): CreatorTransaction | null {
  const read = transactionSchema.safeParse(raw);
  if (!read.success) return null;
  const { transaction, meta, blockTime } = read.data;
  if (meta.err !== null && meta.err !== undefined) return null;
  const message = transaction.message;
  const { keys, instructions } = keysAndInstructions(read.data);
  const signers = message.accountKeys.slice(0, Number(message.header.numRequiredSignatures));
  const creatorSigned = signers.includes(creator);
  const created = new Set<string>();
  for (const ix of instructions) {
    const mint = createdMint(ix, keys, creatorSigned);
    if (mint !== null) created.add(mint);
  }
  return {
    signature: transaction.signatures[0] ?? '',
    blockTime: blockTime === null || blockTime === undefined ? null : Number(blockTime),
    created: [...created],
    moves: balanceMoves(meta.preTokenBalances, meta.postTokenBalances, creator),
  };
}
