/**
 * The sandbox's stand-in for Raydium CPMM's `withdraw`, whose program body it does not run (no DEX
 * program is loaded; the seeded pools are written in the program's layout). A landed transaction
 * that carries the memo `WITHDRAW_MEMO` and burns LP of a CPMM pool with SPL Token (signed by the
 * LP holder, as the program's own burn is) is completed here as the program would complete it: the
 * burned LP's share of each vault, less the protocol and fund fees kept in it, rounded down, leaves
 * the vault for the holder's token account of that mint named in the same transaction, and the
 * pool counts that LP as issued no more. These are direct writes of chain state, as the seeding's
 * pools are, made before any account subscription hears of the transaction. Without a token account
 * of the holder for each side in the transaction, nothing is paid out: the burn stays a burn.
 */

import { getTokenCodec } from '@solana-program/token';
import { writeLayoutField } from '../../solana/decoders/layout.js';
import { CPMM_POOL_LAYOUT, decodeRaydiumCpmmPool } from '../../solana/decoders/raydium-cpmm.js';
import { RAYDIUM_CPMM_PROGRAM, WSOL_MINT } from '../../solana/programs.js';
import { addressText, MEMO_V2_PROGRAM, TOKEN_PROGRAM } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import type { TransactionRecord } from '../chain/history.js';
import { isTokenAccountData, readU64, tokenAccountFields } from '../chain/token-accounts.js';
import { parseWireTransaction } from '../chain/wire.js';

export const WITHDRAW_MEMO = 'raydium-cpmm:withdraw';

/** SPL Token instruction tags: Burn (amount) and BurnChecked (amount, decimals); accounts [account, mint, authority]. */
const BURN = 8;
const BURN_CHECKED = 15;
const tokenCodec = getTokenCodec();

interface LpBurn {
  readonly mint: string;
  /** The LP token account burned from: its owner is the holder paid. */
  readonly lpAccount: string;
  readonly amount: bigint;
}

/** Follows `chain`'s transactions from now on; returns the function that stops it. */
export function standInForCpmmWithdraw(chain: SandboxChain): () => void {
  return chain.onTransaction((record) => {
    // Only a landed transaction that carries a memo can be a marked withdrawal: the rest are not parsed.
    if (record.meta.err !== null || !record.accountKeys.includes(MEMO_V2_PROGRAM)) return;
    const burns = withdrawBurns(record);
    for (const burn of burns) payOut(chain, burn, record.accountKeys);
  });
}

/** The LP burns of a transaction marked as a withdrawal; none when it is not. */
function withdrawBurns(record: TransactionRecord): LpBurn[] {
  const tx = parseWireTransaction(record.wire);
  const keys = record.accountKeys;
  const text = new TextDecoder();
  const marked = tx.instructions.some(
    (ix) => keys[ix.programIdIndex] === MEMO_V2_PROGRAM && text.decode(ix.data) === WITHDRAW_MEMO,
  );
  if (!marked) return [];
  return tx.instructions.flatMap((ix) => {
    const tag = ix.data[0];
    if (keys[ix.programIdIndex] !== TOKEN_PROGRAM || (tag !== BURN && tag !== BURN_CHECKED)) return [];
    const [account, mint] = ix.accounts.map((i) => keys[i]);
    if (account === undefined || mint === undefined || ix.data.length < 9) return [];
    return [{ mint, lpAccount: account, amount: readU64(ix.data, 1) }];
  });
}

function payOut(chain: SandboxChain, burn: LpBurn, named: readonly string[]): void {
  const found = chain.programAccounts(RAYDIUM_CPMM_PROGRAM).flatMap(({ address, data }) => {
    const pool = decodeRaydiumCpmmPool(data);
    return pool.ok && pool.value.lpMint === burn.mint
      ? [{ address: addressText(address), pool: pool.value }]
      : [];
  });
  const lpAccount = chain.getAccount(burn.lpAccount);
  if (found.length !== 1 || !lpAccount) return;
  const { address, pool } = found[0]!;
  const owner = tokenAccountFields(lpAccount.data()).owner;
  const sides = [
    { vault: pool.vaultA, mint: pool.mintA, fees: pool.feesA },
    { vault: pool.vaultB, mint: pool.mintB, fees: pool.feesB },
  ].map((side) => ({ ...side, to: tokenAccountIn(chain, named, side.mint, owner) }));
  if (sides.some((s) => s.to === null) || burn.amount > pool.lpSupply) return;
  for (const side of sides) {
    const vault = tokenAmount(chain, side.vault);
    const out = vault > side.fees ? ((vault - side.fees) * burn.amount) / pool.lpSupply : 0n;
    moveTokens(chain, side.vault, side.to!, side.mint, out);
  }
  const poolAccount = chain.getAccount(address)!;
  const data = new Uint8Array(poolAccount.data());
  writeLayoutField(CPMM_POOL_LAYOUT, 'lpSupply', pool.lpSupply - burn.amount, data);
  chain.setAccount({ address, lamports: poolAccount.lamports(), data, owner: RAYDIUM_CPMM_PROGRAM });
}

/** The token account of `mint` owned by `owner` among the transaction's accounts, if any. */
function tokenAccountIn(chain: SandboxChain, named: readonly string[], mint: string, owner: string) {
  for (const address of named) {
    const account = chain.getAccount(address);
    if (!account || !isTokenAccountData(addressText(account.owner()), account.data())) continue;
    const fields = tokenAccountFields(account.data());
    if (fields.mint === mint && fields.owner === owner) return address;
  }
  return null;
}

function tokenAmount(chain: SandboxChain, address: string): bigint {
  const account = chain.getAccount(address);
  return account ? tokenCodec.decode(account.data()).amount : 0n;
}

/** Moves `amount` between two token accounts of `mint`; a wrapped-SOL account's lamports move with it. */
function moveTokens(chain: SandboxChain, from: string, to: string, mint: string, amount: bigint): void {
  for (const [address, delta] of [
    [from, -amount],
    [to, amount],
  ] as const) {
    const account = chain.getAccount(address)!;
    const data = new Uint8Array(account.data());
    // The 165-byte base is rewritten; a Token-2022 account's extensions after it stay as they were.
    const token = tokenCodec.decode(data);
    data.set(tokenCodec.encode({ ...token, amount: token.amount + delta }));
    const lamports = account.lamports() + (mint === WSOL_MINT ? delta : 0n);
    chain.setAccount({ address, lamports, data, owner: addressText(account.owner()) });
  }
}
