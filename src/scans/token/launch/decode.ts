/**
 * Pure: one getTransaction answer (encoding "json") → what launch forensics needs from it: who
 * signed and paid, whether it created the mint, who bought the mint (a signer whose token
 * balance of it rose: the generic reading of any DEX or launchpad, pump.fun included, from
 * pre/postTokenBalances) and the SOL moved between wallets by System transfers (top level and
 * inner). Numbers may arrive as bigint (kit's RPC) or number (recorded JSON).
 */
import bs58 from 'bs58';
import type { z } from 'zod';
import { SYSTEM_PROGRAM } from '../../../solana/programs.js';
import type { LaunchBuy, LaunchTransaction, SolTransfer } from '../../token-facts/model.js';
import {
  type instruction,
  keysAndInstructions,
  transactionSchema,
} from '../../token-facts/transaction-json.js';

/** System instruction 2: Transfer { lamports: u64 }, accounts [from, to]. */
const SYSTEM_TRANSFER = 2;

type Parsed = z.infer<typeof transactionSchema>;
type Instruction = z.infer<typeof instruction>;

function solTransfer(ix: Instruction, keys: readonly string[]): SolTransfer | null {
  if (keys[Number(ix.programIdIndex)] !== SYSTEM_PROGRAM || ix.accounts.length < 2) return null;
  const data = bs58.decode(ix.data);
  if (data.length < 12) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== SYSTEM_TRANSFER) return null;
  const from = keys[Number(ix.accounts[0])];
  const to = keys[Number(ix.accounts[1])];
  return from && to ? { from, to, lamports: view.getBigUint64(4, true) } : null;
}

function buysOf(parsed: Parsed, mint: string, keys: readonly string[], signers: ReadonlySet<string>) {
  const before = new Map<bigint, bigint>();
  for (const b of parsed.meta.preTokenBalances ?? []) {
    if (b.mint === mint) before.set(b.accountIndex, BigInt(b.uiTokenAmount.amount));
  }
  const buys: LaunchBuy[] = [];
  for (const b of parsed.meta.postTokenBalances ?? []) {
    if (b.mint !== mint || b.owner === undefined || !signers.has(b.owner)) continue;
    const amount = BigInt(b.uiTokenAmount.amount) - (before.get(b.accountIndex) ?? 0n);
    const tokenAccount = keys[Number(b.accountIndex)];
    if (amount > 0n && tokenAccount) buys.push({ wallet: b.owner, tokenAccount, amount });
  }
  return buys;
}

/** The transaction's launch-relevant facts, or null when the answer is not a readable transaction. */
export function decodeLaunchTransaction(raw: unknown, mint: string): LaunchTransaction | null {
  const read = transactionSchema.safeParse(raw);
  if (!read.success) return null;
  const parsed = read.data;
  const message = parsed.transaction.message;
  const { keys, instructions } = keysAndInstructions(parsed);
  const signers = message.accountKeys.slice(0, Number(message.header.numRequiredSignatures));
  const mintIndex = keys.indexOf(mint);
  const createsMint =
    mintIndex >= 0 &&
    parsed.meta.preBalances[mintIndex] === 0n &&
    (parsed.meta.postBalances[mintIndex] ?? 0n) > 0n;
  const failed = parsed.meta.err !== null && parsed.meta.err !== undefined;
  return {
    signature: parsed.transaction.signatures[0] ?? '',
    slot: Number(parsed.slot),
    blockTime: parsed.blockTime === null || parsed.blockTime === undefined ? null : Number(parsed.blockTime),
    failed,
    feePayer: message.accountKeys[0] ?? '',
    signers,
    createsMint,
    // A failed transaction moved nothing, whatever its instructions say.
    buys: failed ? [] : buysOf(parsed, mint, keys, new Set(signers)),
    solTransfers: failed
      ? []
      : instructions.flatMap((ix) => {
          const t = solTransfer(ix, keys);
          return t ? [t] : [];
        }),
  };
}
