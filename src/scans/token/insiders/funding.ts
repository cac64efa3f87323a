/**
 * Pure: one getTransaction answer (encoding "json") → who sent a wallet SOL in it, by a System
 * transfer or account creation (top level or inner), and whether the wallet's balance of the mint
 * shows in it (it touched the token). Reads the same schema as launch forensics (token-facts/transaction-json.ts).
 */
import bs58 from 'bs58';
import { SYSTEM_PROGRAM } from '../../../solana/programs.js';
import { keysAndInstructions, transactionSchema } from '../../token-facts/transaction-json.js';

/** System instructions that move lamports to accounts[1]: CreateAccount (0) and Transfer (2). */
const CREATE_ACCOUNT = 0;
const TRANSFER = 2;

export interface FundingRead {
  readonly signature: string;
  readonly blockTime: number | null;
  /** Who sent the wallet SOL (the first such instruction), or null when nobody did. */
  readonly funder: string | null;
  /** The wallet holds (or held) the mint in this transaction's token balances. */
  readonly touchesMint: boolean;
}

type Parsed = ReturnType<typeof transactionSchema.parse>;
type Instruction = Parsed['transaction']['message']['instructions'][number];

function senderTo(ix: Instruction, keys: readonly string[], wallet: string): string | null {
  if (keys[Number(ix.programIdIndex)] !== SYSTEM_PROGRAM || ix.accounts.length < 2) return null;
  // An answer whose instruction data is not base58 is not read as a transfer or a creation.
  const data = bs58.decodeUnsafe(ix.data);
  if (data === undefined) return null;
  if (data.length < 12) return null;
  const kind = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  if (kind !== TRANSFER && kind !== CREATE_ACCOUNT) return null;
  const from = keys[Number(ix.accounts[0])];
  const to = keys[Number(ix.accounts[1])];
  return to === wallet && from !== undefined && from !== wallet ? from : null;
}

/** The funding facts of `wallet` in the transaction, or null when the answer is not a readable transaction. */
export function fundingOf(raw: unknown, wallet: string, mint: string | null): FundingRead | null {
  const read = transactionSchema.safeParse(raw);
  if (!read.success) return null;
  const parsed = read.data;
  const { keys, instructions } = keysAndInstructions(parsed);
  const failed = parsed.meta.err !== null && parsed.meta.err !== undefined;
  let funder: string | null = null;
  for (const ix of failed ? [] : instructions) {
    funder = senderTo(ix, keys, wallet);
    if (funder !== null) break;
  }
  const balances = [...(parsed.meta.preTokenBalances ?? []), ...(parsed.meta.postTokenBalances ?? [])];
  return {
    signature: parsed.transaction.signatures[0] ?? '',
    blockTime: parsed.blockTime === null || parsed.blockTime === undefined ? null : Number(parsed.blockTime),
    funder,
    touchesMint: mint !== null && balances.some((b) => b.mint === mint && b.owner === wallet),
  };
}
