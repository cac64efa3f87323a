import type { Account } from 'litesvm';
import { addressText } from './addresses.js';
import type { LoadedAddresses, TokenBalance } from './history.js';
import { isTokenAccountData, tokenAccountFields, uiTokenAmount } from './token-accounts.js';
import type { WireTransaction } from './wire.js';

export type AccountReader = (address: string) => Account | null;

/**
 * Static keys followed by the addresses a v0 transaction loads from lookup tables (writable, then readonly):
 * the index space of meta's balances and of instruction account indexes. A missing table resolves to
 * nothing here; LiteSVM then rejects the transaction with AddressLookupTableNotFound.
 */
export function resolveAccountKeys(
  tx: WireTransaction,
  read: AccountReader,
): { accountKeys: string[]; loadedAddresses: LoadedAddresses } {
  const loadedAddresses: LoadedAddresses = { writable: [], readonly: [] };
  for (const lookup of tx.addressTableLookups) {
    const table = read(lookup.accountKey);
    if (!table) continue;
    const data = table.data();
    const at = (index: number): string | undefined => {
      const start = 56 + 32 * index;
      return start + 32 <= data.length ? addressText(data.subarray(start, start + 32)) : undefined;
    };
    for (const index of lookup.writableIndexes) {
      const address = at(index);
      if (address) loadedAddresses.writable.push(address);
    }
    for (const index of lookup.readonlyIndexes) {
      const address = at(index);
      if (address) loadedAddresses.readonly.push(address);
    }
  }
  return {
    accountKeys: [...tx.staticAccounts, ...loadedAddresses.writable, ...loadedAddresses.readonly],
    loadedAddresses,
  };
}

export interface BalanceSnapshot {
  lamports: bigint[];
  tokens: TokenBalance[];
}

/** Lamports and token balances of each key, in meta's pre/post shape. */
export function snapshotBalances(keys: readonly string[], read: AccountReader): BalanceSnapshot {
  const lamports: bigint[] = [];
  const tokens: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const account = read(key);
    lamports.push(account?.lamports() ?? 0n);
    if (!account) return;
    const programId = addressText(account.owner());
    const data = account.data();
    if (!isTokenAccountData(programId, data)) return;
    const fields = tokenAccountFields(data);
    const decimals = read(fields.mint)?.data()[44] ?? 0;
    tokens.push({
      accountIndex,
      mint: fields.mint,
      owner: fields.owner,
      programId,
      uiTokenAmount: uiTokenAmount(fields.amount, decimals),
    });
  });
  return { lamports, tokens };
}
