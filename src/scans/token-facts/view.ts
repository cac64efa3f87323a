/**
 * Decode once: the mint and its metadata as soon as round 1 has read them, the holders' owners as
 * soon as round 2 has, and the view of the token that every consumer takes (model.ts, TokenView).
 * Nothing else in the token pipeline decodes the mint or derives the holders.
 */
import { decodeMetadata } from '../../solana/decoders/metaplex-metadata.js';
import { decodeMint } from '../../solana/decoders/mint.js';
import { TOKEN_METADATA_PROGRAM } from '../../solana/programs.js';
import { holdersOf } from './holders.js';
import type { HeldBy, Holder, HolderRead, MintView, RawAccount, TokenFacts, TokenView } from './model.js';

/** Round 1's mint and metadata accounts, decoded. */
export function decodeMintRead(mintAccount: RawAccount | null, metadataAccount: RawAccount | null): MintView {
  const metadata =
    metadataAccount && metadataAccount.owner === TOKEN_METADATA_PROGRAM
      ? decodeMetadata(metadataAccount.data)
      : null;
  const metaplex = metadata?.ok ? metadata.value : null;
  if (!mintAccount) return { mint: null, notMint: 'no account exists at this address', metaplex };
  const decoded = decodeMint(mintAccount.data, mintAccount.owner);
  if (!decoded.ok) return { mint: null, notMint: decoded.detail, metaplex };
  // An account allocated for a mint but never initialised holds no token yet.
  const notMint = decoded.value.isInitialized ? null : 'the mint account was never initialised';
  return { mint: decoded.value, notMint, metaplex };
}

/** Round 2's read with the holders' owners decoded. */
export function heldBy(read: HolderRead): HeldBy {
  return { read, holders: holdersOf(read.largest, read.accounts) };
}

/** The view of facts whose mint (and holders) are already decoded. */
export function tokenView(facts: TokenFacts, mint: MintView, holders: readonly Holder[]): TokenView {
  const { mintAccount, metadataAccount, largest, holderAccounts } = facts;
  return {
    ...facts,
    decoded: { ...mint, holders, from: { mintAccount, metadataAccount, largest, holderAccounts } },
  };
}

const sameReads = (facts: TokenFacts, view: TokenView['decoded']) =>
  view.from.mintAccount === facts.mintAccount &&
  view.from.metadataAccount === facts.metadataAccount &&
  view.from.largest === facts.largest &&
  view.from.holderAccounts === facts.holderAccounts;

/**
 * The view of any facts: the one the schedule decoded when it is theirs (the scans' case: no
 * decoding), else decoded here once (facts assembled by hand, as a test or a sandbox does).
 */
export function viewOf(facts: TokenFacts | TokenView): TokenView {
  if ('decoded' in facts && sameReads(facts, facts.decoded)) return facts;
  const holders = facts.largest ? holdersOf(facts.largest, facts.holderAccounts) : [];
  return tokenView(facts, decodeMintRead(facts.mintAccount, facts.metadataAccount), holders);
}
