/**
 * Copycat tickers (IMPERSONATES_VERIFIED_TOKEN): tokens whose names copy a verified token's, made
 * with the real Token-2022 metadata instructions (InitializeTokenMetadata on a mint whose
 * MetadataPointer names itself, then the update authority renounced) or, on an SPL Token mint,
 * with the real Token Metadata program. Beside them what must not flag: USDC itself, given its
 * Metaplex metadata, and a listed variant (wrapped SOL's Token-2022 twin) named like wrapped SOL.
 */
import { type Address, type KeyPairSigner, none, some } from '@solana/kit';
import {
  type ExtensionArgs,
  getInitializeTokenMetadataInstruction,
  getMintEncoder,
  getMintSize,
  getUpdateTokenMetadataUpdateAuthorityInstruction,
} from '@solana-program/token-2022';
import { decodeMint } from '../../solana/decoders/mint.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT } from '../../solana/programs.js';
import { submit } from '../wallets.js';
import { createMetadata } from './builders/metaplex.js';
import { AuthorityType, revokeMintAuthorityInstruction } from './builders/token.js';
import { fundedSigner, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { seedToken2022 } from './token-2022.js';
import { seedSplToken, USDC_AUTHORITY_LABEL } from './tokens.js';

/** Wrapped SOL's Token-2022 twin: a variant of wrapped SOL in the verified registry. */
export const WSOL_2022_MINT = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP' as Address;

interface Names {
  readonly name: string;
  readonly symbol: string;
}

/** MetadataPointer to the mint itself, then its TokenMetadata (initialised after the mint). */
function ownMetadata(mint: Address, authority: KeyPairSigner, names: Names): ExtensionArgs[] {
  return [
    { __kind: 'MetadataPointer', authority: none(), metadataAddress: mint },
    {
      __kind: 'TokenMetadata',
      updateAuthority: some(authority.address),
      mint,
      ...names,
      uri: `https://sandbox.invalid/${names.symbol}.json`,
      additionalMetadata: new Map(),
    },
  ];
}

/** Nobody can rename it any more: the metadata's update authority is set to none. */
async function renounceMetadata(context: ScenarioContext, mint: Address, authority: KeyPairSigner) {
  await submit(context.chain, authority, [
    getUpdateTokenMetadataUpdateAuthorityInstruction({
      metadata: mint,
      updateAuthority: authority,
      newUpdateAuthority: none(),
    }),
  ]);
}

async function seedToken2022Copy(
  context: ScenarioContext,
  spec: { name: string; description: string; names: Names },
): Promise<BuiltSubject> {
  const mint = (await context.keys.signer(`${spec.name}:mint`)).address;
  return seedToken2022(context, {
    name: spec.name,
    description: spec.description,
    extensions: (authority) => ownMetadata(mint, authority, spec.names),
    extensionNames: ['MetadataPointer', 'TokenMetadata'],
    after: async (address, authority) => {
      await renounceMetadata(context, address, authority);
      return {};
    },
    expect: () => ({ tokenMetadata: { ...spec.names, updateAuthority: null } }),
  });
}

export async function seedCopycats(context: ScenarioContext): Promise<BuiltSubject[]> {
  const copyUsdc = await seedToken2022Copy(context, {
    name: 'token:copycat-usdc',
    description: `Token-2022 mint named "USD Coin" / "USDC" by its own metadata extension, authorities and update authority renounced: an exact copy of USDC's names at another mint`,
    names: { name: 'USD Coin', symbol: 'USDC' },
  });
  const lookalike = await seedToken2022Copy(context, {
    name: 'token:copycat-lookalike',
    description:
      'Token-2022 mint whose symbol is "UЅDC" with a Cyrillic Ѕ (U+0405): it reads as USDC, its bytes differ',
    names: { name: 'US Dollar Token', symbol: 'UЅDC' },
  });
  const decorated = await seedToken2022Copy(context, {
    name: 'token:copycat-decorated',
    description: 'Token-2022 mint named "U.S.D.C" / "$USDC": USDC with decorations around its letters',
    names: { name: 'U.S.D.C', symbol: '$USDC' },
  });
  const copyJup = await seedSplToken(context, {
    name: 'token:copycat-jup',
    label: 'token:copycat-jup',
    description:
      'SPL Token mint with immutable Metaplex metadata "Jupiter" / "JUP": a copy of JUP at another mint',
    allocations: Array.from({ length: 20 }, () => 50_000n),
    revoke: true,
    metadata: { name: 'Jupiter', symbol: 'JUP', isMutable: false },
  });
  return [
    copyUsdc,
    lookalike,
    decorated,
    copyJup,
    await seedUsdcMetadata(context),
    await seedListedVariant(context),
  ];
}

function supplyOf(context: ScenarioContext, mint: Address): string {
  const account = context.chain.getAccount(mint);
  // Read as the SPL Token mint it is.
  const decoded = account ? decodeMint(account.data(), TOKEN_PROGRAM) : null;
  return decoded?.ok ? decoded.value.supply.toString() : '0';
}

/** USDC itself, with the Metaplex metadata it carries on mainnet: on the registry, never a copy. */
async function seedUsdcMetadata(context: ScenarioContext): Promise<BuiltSubject> {
  const authority = await context.keys.signer(USDC_AUTHORITY_LABEL);
  const names = { name: 'USD Coin', symbol: 'USDC' };
  const metadata = await createMetadata(context.chain, {
    payer: authority,
    mint: USDC_MINT,
    mintAuthority: authority,
    updateAuthority: authority.address,
    ...names,
    uri: 'https://sandbox.invalid/usdc.json',
    isMutable: true,
  });
  return {
    name: 'token:usdc',
    kind: 'token',
    address: USDC_MINT,
    description:
      'USDC at its mainnet mint (the sandbox holds its mint authority), with Metaplex metadata "USD Coin" / "USDC": the verified token itself',
    expect: {
      program: 'spl-token',
      decimals: 6,
      // As seeded: it grows as the sandbox mints test USDC to payers.
      supply: supplyOf(context, USDC_MINT),
      mintAuthority: authority.address,
      freezeAuthority: null,
      extensions: [],
      holders: [],
      topHolderShareBps: 0,
      metaplex: { address: metadata.address, updateAuthority: authority.address, ...names, isMutable: true },
    },
  };
}

/**
 * Wrapped SOL's Token-2022 twin at its real address, given wrapped SOL's own name and symbol by the
 * real InitializeTokenMetadata instruction. On mainnet this mint carries no metadata: here it stands
 * for a listed variant that does, which must not be called a copy. The sandbox writes the mint
 * account itself (its address has no key), with a MetadataPointer to itself and a sandbox mint
 * authority that signs the metadata and is then revoked.
 */
async function seedListedVariant(context: ScenarioContext): Promise<BuiltSubject> {
  const authority = await fundedSigner(context, 'token:verified-variant:authority');
  const names = { name: 'Wrapped SOL', symbol: 'SOL' };
  const pointer: ExtensionArgs = {
    __kind: 'MetadataPointer',
    authority: none(),
    metadataAddress: WSOL_2022_MINT,
  };
  const metadata: ExtensionArgs = {
    __kind: 'TokenMetadata',
    updateAuthority: none(),
    mint: WSOL_2022_MINT,
    ...names,
    uri: '',
    additionalMetadata: new Map(),
  };
  const data = getMintEncoder().encode({
    mintAuthority: some(authority.address),
    supply: 0n,
    decimals: 9,
    isInitialized: true,
    freezeAuthority: none(),
    extensions: [pointer],
  });
  const lamports = context.chain.minimumBalanceForRentExemption(getMintSize([pointer, metadata]));
  context.chain.setAccount({
    address: WSOL_2022_MINT,
    lamports,
    data: new Uint8Array(data),
    owner: TOKEN_2022_PROGRAM,
  });
  await submit(context.chain, authority, [
    getInitializeTokenMetadataInstruction({
      metadata: WSOL_2022_MINT,
      updateAuthority: authority.address,
      mint: WSOL_2022_MINT,
      mintAuthority: authority,
      ...names,
      uri: '',
    }),
  ]);
  await renounceMetadata(context, WSOL_2022_MINT, authority);
  await submit(context.chain, authority, [
    revokeMintAuthorityInstruction(WSOL_2022_MINT, authority, TOKEN_2022_PROGRAM, AuthorityType.MintTokens),
  ]);
  return {
    name: 'token:verified-variant',
    kind: 'token',
    address: WSOL_2022_MINT,
    description:
      'Wrapped SOL\'s Token-2022 twin (9pan9…, a variant of wrapped SOL in the verified registry), named "Wrapped SOL" / "SOL" by the real Token-2022 metadata instructions; on mainnet it has no metadata, here it stands for a listed variant that does: listed, so never a copy',
    expect: {
      program: 'token-2022',
      decimals: 9,
      supply: '0',
      mintAuthority: null,
      freezeAuthority: null,
      extensions: ['MetadataPointer', 'TokenMetadata'],
      holders: [],
      topHolderShareBps: 0,
      tokenMetadata: { ...names, updateAuthority: null },
    },
  };
}
