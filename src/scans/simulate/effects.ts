/**
 * Pure: what the simulated transaction does, read from the state of its accounts before and
 * after (never from log text, which programs write as they like). The drainer shapes found here
 * are the ones /verify/tx reads from instructions, so an approval made through a CPI of an
 * unknown program is caught as well as one made at the top level.
 */
import type { Address } from '@solana/kit';
import { decodeMint } from '../../solana/decoders/mint.js';
import { type DecodedTokenAccount, decodeTokenAccount } from '../../solana/decoders/token-account.js';
import { SYSTEM_PROGRAM } from '../../solana/programs.js';
import type { DrainerShape } from '../tx/anatomy.js';
import type { AccountState, SimulateFacts } from './facts.js';

export interface SolChange {
  readonly address: string;
  readonly pre: bigint;
  readonly post: bigint;
  readonly change: bigint;
}

export interface TokenMove {
  readonly tokenAccount: string;
  /** The wallet that owns the tokens (after the transaction when it still exists). */
  readonly owner: string;
  readonly mint: string;
  readonly pre: bigint;
  readonly post: bigint;
  readonly change: bigint;
  /** From the mint, when the transaction names it; null otherwise. */
  readonly decimals: number | null;
}

export interface ClosedAccount {
  readonly address: string;
  readonly lamports: bigint;
  readonly tokenAccount: boolean;
  /** The account that gained the most lamports, where the closed account's went; null if none did. */
  readonly destination: string | null;
}

/** A mint's minting or freezing power handed to someone who did not sign. */
export interface AuthorityHandover {
  readonly mint: string;
  readonly authorityType: 'mint' | 'freeze';
  readonly previous: string | null;
  readonly newAuthority: string;
}

export interface Effects {
  readonly sol: readonly SolChange[];
  readonly tokens: readonly TokenMove[];
  readonly closed: readonly ClosedAccount[];
  /** Drainer shapes seen in the state change. */
  readonly shapes: readonly DrainerShape[];
  readonly authorityHandovers: readonly AuthorityHandover[];
}

function tokenAccount(state: AccountState | null | undefined): DecodedTokenAccount | null {
  if (state == null || state.lamports === 0n) return null;
  const result = decodeTokenAccount(state.data, state.owner as Address);
  return result.ok ? result.value : null;
}

/** The state after: the simulated one for written accounts, the one before for the rest. */
function after(facts: SimulateFacts, key: string): AccountState | null {
  return facts.post.has(key) ? facts.post.get(key)! : (facts.pre.get(key) ?? null);
}

const lamportsOf = (s: AccountState | null | undefined) => s?.lamports ?? 0n;

function mintOf(state: AccountState | null | undefined) {
  if (state == null) return null;
  const result = decodeMint(state.data, state.owner as Address);
  return result.ok ? result.value : null;
}

/** Mint and freeze authorities that changed to a non-signer (the mint's own SetAuthority). */
function authorityHandovers(facts: SimulateFacts, signers: ReadonlySet<string>): AuthorityHandover[] {
  return facts.writable.flatMap((key) => {
    const pre = mintOf(facts.pre.get(key));
    const post = mintOf(after(facts, key));
    if (pre === null || post === null) return [];
    const changed = [
      { authorityType: 'mint' as const, previous: pre.mintAuthority, now: post.mintAuthority },
      { authorityType: 'freeze' as const, previous: pre.freezeAuthority, now: post.freezeAuthority },
    ];
    return changed.flatMap(({ authorityType, previous, now }) =>
      now !== null && now !== previous && !signers.has(now)
        ? [{ mint: key, authorityType, previous, newAuthority: now }]
        : [],
    );
  });
}

function decimalsOf(facts: SimulateFacts, mint: string): number | null {
  const state = facts.pre.get(mint) ?? facts.post.get(mint) ?? null;
  if (state === null) return null;
  const result = decodeMint(state.data, state.owner as Address);
  return result.ok ? result.value.decimals : null;
}

function solChanges(facts: SimulateFacts, signers: readonly string[]): SolChange[] {
  const keys = [...new Set([...signers, ...facts.writable])];
  return keys.flatMap((address) => {
    const pre = lamportsOf(facts.pre.get(address));
    const post = lamportsOf(after(facts, address));
    return post === pre && !signers.includes(address) ? [] : [{ address, pre, post, change: post - pre }];
  });
}

function tokenMoves(facts: SimulateFacts): TokenMove[] {
  return facts.writable.flatMap((key) => {
    const pre = tokenAccount(facts.pre.get(key));
    const post = tokenAccount(after(facts, key));
    const either = post ?? pre;
    if (either === null) return [];
    const change = (post?.amount ?? 0n) - (pre?.amount ?? 0n);
    if (change === 0n) return [];
    return [
      {
        tokenAccount: key,
        owner: either.owner,
        mint: either.mint,
        pre: pre?.amount ?? 0n,
        post: post?.amount ?? 0n,
        change,
        decimals: decimalsOf(facts, either.mint),
      },
    ];
  });
}

function closedAccounts(facts: SimulateFacts): ClosedAccount[] {
  const gone = facts.writable.filter(
    (k) => lamportsOf(facts.pre.get(k)) > 0n && lamportsOf(after(facts, k)) === 0n,
  );
  let destination: string | null = null;
  let largest = 0n;
  for (const k of facts.writable) {
    const gain = lamportsOf(after(facts, k)) - lamportsOf(facts.pre.get(k));
    if (gain > largest) [destination, largest] = [k, gain];
  }
  return gone.map((address) => ({
    address,
    lamports: lamportsOf(facts.pre.get(address)),
    tokenAccount: tokenAccount(facts.pre.get(address)) !== null,
    destination,
  }));
}

/** Delegations and owners of token accounts, changed in favour of someone who did not sign. */
function tokenShapes(facts: SimulateFacts, signers: ReadonlySet<string>): DrainerShape[] {
  return facts.writable.flatMap((key): DrainerShape[] => {
    const pre = tokenAccount(facts.pre.get(key));
    const post = tokenAccount(after(facts, key));
    if (pre === null || post === null) return [];
    const shapes: DrainerShape[] = [];
    const delegate = post.delegate;
    const newGrant = delegate !== pre.delegate || post.delegatedAmount > pre.delegatedAmount;
    if (delegate !== null && newGrant && !signers.has(delegate) && post.delegatedAmount > 0n) {
      shapes.push({ kind: 'approve', tokenAccount: key, delegate, amount: post.delegatedAmount });
    }
    if (post.owner !== pre.owner && !signers.has(post.owner)) {
      shapes.push({ kind: 'owner_change', tokenAccount: key, newOwner: post.owner });
    }
    return shapes;
  });
}

/** A signer's wallet handed to a program: owned by the System Program before, by another after. */
function assignShapes(facts: SimulateFacts, signers: readonly string[]): DrainerShape[] {
  return signers.flatMap((key): DrainerShape[] => {
    const pre = facts.pre.get(key);
    const post = after(facts, key);
    if (pre == null || post === null || pre.owner !== SYSTEM_PROGRAM || post.owner === SYSTEM_PROGRAM)
      return [];
    return [{ kind: 'system_assign', account: key, program: post.owner }];
  });
}

export function effectsOf(facts: SimulateFacts, signers: readonly string[]): Effects {
  const signerSet = new Set(signers);
  const closed = closedAccounts(facts);
  const closeShapes = closed.flatMap((c): DrainerShape[] =>
    c.tokenAccount && c.destination !== null && !signerSet.has(c.destination)
      ? [{ kind: 'close_to_third_party', tokenAccount: c.address, destination: c.destination }]
      : [],
  );
  return {
    sol: solChanges(facts, signers),
    tokens: tokenMoves(facts),
    closed,
    shapes: [...tokenShapes(facts, signerSet), ...assignShapes(facts, signers), ...closeShapes],
    authorityHandovers: authorityHandovers(facts, signerSet),
  };
}
