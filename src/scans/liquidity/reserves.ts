/**
 * Pure: how much of each side a market's pool holds, from the accounts read. A pool's vault is
 * normally a token account holding only that pool's tokens; a Meteora DAMM v1 pool instead holds LP
 * of a dynamic vault shared with every other pool of the mint, so its reserve is the vault's
 * unlocked amount (total_amount less the profit still vesting, at the scan's time) × the pool's
 * vault-LP balance / the vault LP mint's supply.
 */
import type { Address } from '@solana/kit';
import { decodeDynamicVault, vaultShareAmount } from '../../solana/decoders/meteora-vault.js';
import { decodeMint } from '../../solana/decoders/mint.js';
import { decodeTokenAccount } from '../../solana/decoders/token-account.js';
import type { RawAccount } from '../token-facts/model.js';
import type { Market } from './markets.js';

type Accounts = ReadonlyMap<Address, RawAccount | null>;
export type Side = 'base' | 'quote';

export function tokenBalance(account: RawAccount | null | undefined): bigint | null {
  if (!account) return null;
  const decoded = decodeTokenAccount(account.data, account.owner);
  return decoded.ok ? decoded.value.amount : null;
}

const vaultOf = (m: Market, side: Side) => (side === 'base' ? m.baseVault : m.quoteVault);

function dynamicVault(accounts: Accounts, vault: Address) {
  const account = accounts.get(vault);
  const decoded = account ? decodeDynamicVault(account.data) : null;
  return decoded?.ok ? decoded.value : null;
}

/**
 * Raw units of `side` that belong to the market's pool at `nowSeconds` (the scan's time: a DAMM v1
 * vault's locked profit vests with it); null when an account it needs is missing.
 */
export function reserveOf(m: Market, side: Side, accounts: Accounts, nowSeconds: number): bigint | null {
  if (!m.dynamicVaults) return tokenBalance(accounts.get(vaultOf(m, side)));
  const vault = dynamicVault(accounts, vaultOf(m, side));
  if (vault === null) return null;
  const lpMint = accounts.get(vault.lpMint);
  const supply = lpMint ? decodeMint(lpMint.data, lpMint.owner) : null;
  const poolLp = tokenBalance(
    accounts.get(side === 'base' ? m.dynamicVaults.baseLp : m.dynamicVaults.quoteLp),
  );
  if (!supply?.ok || poolLp === null) return null;
  return vaultShareAmount(vault, supply.value.supply, poolLp, nowSeconds);
}

/**
 * Accounts a DAMM v1 market's reserves need besides its two vaults: the pool's vault-LP accounts
 * and each vault's LP mint — from the vault once read, else from `knownLpMints` (derived with the
 * pools, so they come in the same round as the vaults).
 */
export function dynamicReserveReads(
  m: Market,
  accounts: Accounts,
  knownLpMints: ReadonlyMap<Address, Address>,
): Address[] {
  if (!m.dynamicVaults) return [];
  const reads: Address[] = [m.dynamicVaults.baseLp, m.dynamicVaults.quoteLp];
  for (const vault of [m.baseVault, m.quoteVault]) {
    const lpMint = accounts.has(vault) ? dynamicVault(accounts, vault)?.lpMint : knownLpMints.get(vault);
    if (lpMint) reads.push(lpMint);
  }
  return reads;
}
