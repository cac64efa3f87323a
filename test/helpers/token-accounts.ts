/**
 * Token account bytes for pure assess tests, made by the @solana-program encoders (SPL Token
 * and Token-2022 with extensions) and a Metaplex MetadataV1 account in its Borsh layout.
 */
import {
  type Address,
  addEncoderSizePrefix,
  getAddressEncoder,
  getBooleanEncoder,
  getStructEncoder,
  getU8Encoder,
  getU16Encoder,
  getU32Encoder,
  getUtf8Encoder,
  none,
  type Option,
  some,
} from '@solana/kit';
import {
  getMintEncoder as getSplMintEncoder,
  getTokenEncoder as getSplTokenEncoder,
} from '@solana-program/token';
import {
  AccountState,
  type ExtensionArgs,
  getMintEncoder as getT22MintEncoder,
} from '@solana-program/token-2022';
import { encodeTokenAccount } from '../../src/sandbox/scenarios/builders/pool-layouts.js';
import type { LargestAccount, RawAccount, TokenFacts } from '../../src/scans/token-facts/model.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../src/solana/programs.js';

export const SUPPLY = 1_000_000_000n;

export const raw = (address: Address, owner: Address, data: Uint8Array): RawAccount => ({
  address,
  owner,
  lamports: 1_461_600n,
  data,
});

/** An SPL token account at `address` holding `amount` of `mint` for `owner`, as the RPC gives it. */
export const splTokenAccount = (
  address: Address,
  mint: Address,
  owner: Address,
  amount: bigint,
): RawAccount => raw(address, TOKEN_PROGRAM, encodeTokenAccount(mint, owner, amount));

/** The token facts of `mint` whose one largest holder is `vault`, owned by `owner` (the pool lookups' input). */
export function factsHeldBy(mint: Address, vault: Address, owner: Address): TokenFacts {
  const holder = { ...splTokenAccount(vault, mint, owner, 1_000n), lamports: 2_039_280n };
  return {
    mint,
    largest: [{ address: vault, amount: 1_000n }],
    holderAccounts: [holder],
  } as unknown as TokenFacts;
}

export interface MintSpec {
  readonly mintAuthority?: Address | null;
  readonly freezeAuthority?: Address | null;
  readonly supply?: bigint;
  /** Token-2022 extensions; absent = an SPL Token mint. */
  readonly extensions?: readonly ExtensionArgs[];
}

export function mintBytes(spec: MintSpec): { owner: Address; data: Uint8Array } {
  const base = {
    mintAuthority: spec.mintAuthority ?? null,
    supply: spec.supply ?? SUPPLY,
    decimals: 6,
    isInitialized: true,
    freezeAuthority: spec.freezeAuthority ?? null,
  } as const;
  if (spec.extensions === undefined) {
    return { owner: TOKEN_PROGRAM, data: new Uint8Array(getSplMintEncoder().encode(base)) };
  }
  return {
    owner: TOKEN_2022_PROGRAM,
    data: new Uint8Array(getT22MintEncoder().encode({ ...base, extensions: [...spec.extensions] })),
  };
}

/** Metaplex MetadataV1 (key 4), laid out as the program writes it, padded to its fixed size. */
export function metaplexBytes(
  mint: Address,
  updateAuthority: Address,
  isMutable: boolean,
  names: { readonly name: string; readonly symbol: string } = { name: 'Flag Test', symbol: 'FLAG' },
): Uint8Array {
  const text = addEncoderSizePrefix(getUtf8Encoder(), getU32Encoder());
  const head = getStructEncoder([
    ['key', getU8Encoder()],
    ['updateAuthority', getAddressEncoder()],
    ['mint', getAddressEncoder()],
    ['name', text],
    ['symbol', text],
    ['uri', text],
    ['sellerFeeBasisPoints', getU16Encoder()],
    ['creatorsNone', getU8Encoder()],
    ['primarySaleHappened', getBooleanEncoder()],
    ['isMutable', getBooleanEncoder()],
  ]).encode({
    key: 4,
    updateAuthority,
    mint,
    name: names.name,
    symbol: names.symbol,
    uri: 'https://example.invalid/flag.json',
    sellerFeeBasisPoints: 0,
    creatorsNone: 0,
    primarySaleHappened: false,
    isMutable,
  });
  const out = new Uint8Array(Math.max(679, head.length));
  out.set(head);
  return out;
}

export interface HolderSpec {
  readonly owner: Address;
  readonly amount: bigint;
  readonly frozen?: boolean;
  readonly delegate?: Address;
  readonly delegatedAmount?: bigint;
}

/** getTokenLargestAccounts' answer and the token accounts behind it, largest first. */
export function holderAccounts(
  mintAddress: Address,
  tokenProgram: Address,
  holders: readonly HolderSpec[],
  tokenAccounts: readonly Address[],
): { largest: LargestAccount[]; holderAccounts: RawAccount[] } {
  const sorted = [...holders].sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
  const encoder = getSplTokenEncoder();
  return {
    largest: sorted.map((h, i) => ({ address: tokenAccounts[i]!, amount: h.amount })),
    holderAccounts: sorted.map((h, i) =>
      raw(
        tokenAccounts[i]!,
        tokenProgram,
        new Uint8Array(
          encoder.encode({
            mint: mintAddress,
            owner: h.owner,
            amount: h.amount,
            delegate: (h.delegate ? some(h.delegate) : none()) as Option<Address>,
            state: h.frozen ? AccountState.Frozen : AccountState.Initialized,
            isNative: none(),
            delegatedAmount: h.delegatedAmount ?? 0n,
            closeAuthority: none(),
          }),
        ),
      ),
    ),
  };
}
