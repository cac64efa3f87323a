/**
 * Pure holder concentration. Shares are of the circulating ("float") supply: tokens held by
 * program-controlled owners (bonding curves, pool vaults, locks — any off-curve owner), by the
 * incinerator, or by addresses the caller names are set aside, and listed in evidence, so a
 * pool holding most of a token is not mistaken for a whale (a false positive users report).
 */
import { isOnCurveAddress } from '../../solana/address-curve.js';
import { decodeTokenAccount } from '../../solana/decoders/token-account.js';
import { INCINERATOR } from '../../solana/programs.js';
import type { Holder, LargestAccount, RawAccount } from './model.js';

export interface Excluded {
  readonly token_account: string;
  readonly owner: string | null;
  readonly amount: string;
  readonly why: string;
}

export interface Concentration {
  readonly holders: readonly Holder[];
  readonly excluded: readonly Excluded[];
  /** Supply minus the excluded balances. */
  readonly floatSupply: bigint;
  readonly top1: Holder | null;
  readonly top1Share: number;
  readonly top10Share: number;
  readonly top10ShareRaw: number;
}

export function holdersOf(
  largest: readonly LargestAccount[],
  accounts: readonly (RawAccount | null)[],
): Holder[] {
  return largest.map((l, i) => {
    const raw = accounts[i];
    const decoded = raw ? decodeTokenAccount(raw.data, raw.owner) : null;
    const account = decoded?.ok ? decoded.value : null;
    return {
      tokenAccount: l.address,
      owner: account?.owner ?? null,
      amount: l.amount,
      frozen: account?.state === 'frozen',
      delegate: account?.delegate ?? null,
      delegatedAmount: account?.delegatedAmount ?? 0n,
    };
  });
}

/** Why a holder is set aside (not a wallet someone holds for itself), or null for a real wallet. */
export function exclusionReason(h: Holder, named: ReadonlyMap<string, string>): string | null {
  const byAccount = named.get(h.tokenAccount);
  if (byAccount) return byAccount;
  if (h.owner === null) return null;
  const byOwner = named.get(h.owner);
  if (byOwner) return byOwner;
  if (h.owner === INCINERATOR) return 'burned (incinerator)';
  if (!isOnCurveAddress(h.owner)) return 'held by a program-controlled address (pool, vault, curve or lock)';
  return null;
}

const share = (amount: bigint, of: bigint) => (of <= 0n ? 0 : Number((amount * 1_000_000n) / of) / 1_000_000);

export function concentration(
  holders: readonly Holder[],
  supply: bigint,
  named: ReadonlyMap<string, string> = new Map(),
): Concentration {
  const excluded: Excluded[] = [];
  const counted: Holder[] = [];
  for (const h of holders) {
    const why = exclusionReason(h, named);
    if (why === null) counted.push(h);
    else excluded.push({ token_account: h.tokenAccount, owner: h.owner, amount: String(h.amount), why });
  }
  const excludedTotal = holders
    .filter((h) => exclusionReason(h, named) !== null)
    .reduce((s, h) => s + h.amount, 0n);
  const floatSupply = supply - excludedTotal;
  const sorted = [...counted].sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
  const top10 = sorted.slice(0, 10).reduce((s, h) => s + h.amount, 0n);
  const top10Raw = [...holders]
    .sort((a, b) => (b.amount > a.amount ? 1 : -1))
    .slice(0, 10)
    .reduce((s, h) => s + h.amount, 0n);
  return {
    holders,
    excluded,
    floatSupply,
    top1: sorted[0] ?? null,
    top1Share: share(sorted[0]?.amount ?? 0n, floatSupply),
    top10Share: share(top10, floatSupply),
    top10ShareRaw: share(top10Raw, supply),
  };
}
