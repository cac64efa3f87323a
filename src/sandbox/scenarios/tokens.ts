/**
 * SPL Token subjects, built with real transactions: USDC at its mainnet address, a clean token, one with
 * live mint and freeze authorities, and one whose supply sits almost entirely with one holder.
 */
import { type Address, getBase58Decoder, type KeyPairSigner } from '@solana/kit';
import { TOKEN_PROGRAM, USDC_MINT } from '../../solana/programs.js';
import { fundUsdc, installUsdcMint, USDC_DECIMALS } from '../usdc.js';
import { submit } from '../wallets.js';
import { privateKeyBytes } from './builders/keys.js';
import { createMetadata } from './builders/metaplex.js';
import {
  AuthorityType,
  associatedTokenAccount,
  createMint,
  type Grant,
  handOverMintAuthorityInstruction,
  mintToOwners,
  revokeMintAuthorityInstruction,
} from './builders/token.js';
import { fundedSigner, holderDistribution, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { HolderExpect, MetaplexExpect, ScenarioManifest, TokenExpect } from './manifest.js';

const DECIMALS = 6;
const UNIT = 10n ** BigInt(DECIMALS);

export const USDC_AUTHORITY_LABEL = 'usdc:mint-authority';

/** USDC at its real mint, with a sandbox mint authority; a few holders get test USDC through real MintToChecked. */
export async function seedUsdc(context: ScenarioContext): Promise<ScenarioManifest['usdc']> {
  const authority = await fundedSigner(context, USDC_AUTHORITY_LABEL);
  installUsdcMint(context.chain, authority.address);
  const holders = await Promise.all(
    [0, 1, 2].map(async (i) => (await context.keys.signer(`usdc:holder:${i}`)).address),
  );
  await fundUsdc(
    context.chain,
    authority,
    holders.map((owner, i) => ({ owner, amount: BigInt(1_000 * (i + 1)) * 10n ** BigInt(USDC_DECIMALS) })),
  );
  return {
    mint: USDC_MINT,
    decimals: USDC_DECIMALS,
    mintAuthority: authority.address,
    mintAuthorityPrivateKey: getBase58Decoder().decode(
      privateKeyBytes(context.keys.seed, USDC_AUTHORITY_LABEL),
    ),
  };
}

async function holderExpectations(mint: Address, tokenProgram: Address, grants: readonly Grant[]) {
  return Promise.all(
    grants.map(
      async ({ owner, amount }): Promise<HolderExpect> => ({
        owner,
        tokenAccount: await associatedTokenAccount(owner, mint, tokenProgram),
        amount: amount.toString(),
      }),
    ),
  );
}

export interface SplTokenSpec {
  name: string;
  label: string;
  description: string;
  /** Whole tokens per holder. */
  allocations: readonly bigint[];
  revoke: boolean;
  /** Hands the mint and freeze authority over to this address after minting (instead of revoking). */
  handOverTo?: Address;
  governor?: TokenExpect['governor'];
  metadata: { name: string; symbol: string; isMutable: boolean };
}

export async function seedSplToken(context: ScenarioContext, spec: SplTokenSpec): Promise<BuiltSubject> {
  const { chain, keys } = context;
  const authority = await fundedSigner(context, `${spec.label}:authority`);
  const mint = await keys.signer(`${spec.label}:mint`);
  await createMint(chain, {
    payer: authority,
    mint,
    tokenProgram: TOKEN_PROGRAM,
    decimals: DECIMALS,
    mintAuthority: authority,
    freezeAuthority: authority.address,
  });
  const metadata = await createMetadata(chain, {
    payer: authority,
    mint: mint.address,
    mintAuthority: authority,
    updateAuthority: authority.address,
    name: spec.metadata.name,
    symbol: spec.metadata.symbol,
    uri: `https://sandbox.invalid/${spec.label}.json`,
    isMutable: spec.metadata.isMutable,
  });
  const grants: Grant[] = await Promise.all(
    spec.allocations.map(async (tokens, i) => ({
      owner: (await keys.signer(`${spec.label}:holder:${i}`)).address,
      amount: tokens * UNIT,
    })),
  );
  await mintToOwners(chain, authority, mint.address, authority, TOKEN_PROGRAM, DECIMALS, grants);
  if (spec.revoke) await revokeAll(context, mint.address, authority);
  if (spec.handOverTo) await handOver(context, mint.address, authority, spec.handOverTo);
  const holder = spec.revoke ? null : (spec.handOverTo ?? authority.address);
  const supply = grants.reduce((sum, grant) => sum + grant.amount, 0n);
  const metaplex: MetaplexExpect = {
    address: metadata.address,
    updateAuthority: authority.address,
    name: spec.metadata.name,
    symbol: spec.metadata.symbol,
    isMutable: spec.metadata.isMutable,
  };
  const expect: TokenExpect = {
    program: 'spl-token',
    decimals: DECIMALS,
    supply: supply.toString(),
    mintAuthority: holder,
    freezeAuthority: holder,
    extensions: [],
    ...holderDistribution(await holderExpectations(mint.address, TOKEN_PROGRAM, grants), supply),
    metaplex,
    ...(spec.governor ? { governor: spec.governor } : {}),
  };
  return { name: spec.name, kind: 'token', address: mint.address, description: spec.description, expect };
}

async function revokeAll(context: ScenarioContext, mint: Address, authority: KeyPairSigner): Promise<void> {
  await submit(context.chain, authority, [
    revokeMintAuthorityInstruction(mint, authority, TOKEN_PROGRAM, AuthorityType.MintTokens),
    revokeMintAuthorityInstruction(mint, authority, TOKEN_PROGRAM, AuthorityType.FreezeAccount),
  ]);
}

async function handOver(
  context: ScenarioContext,
  mint: Address,
  authority: KeyPairSigner,
  to: Address,
): Promise<void> {
  await submit(context.chain, authority, [
    handOverMintAuthorityInstruction(mint, authority, TOKEN_PROGRAM, AuthorityType.MintTokens, to),
    handOverMintAuthorityInstruction(mint, authority, TOKEN_PROGRAM, AuthorityType.FreezeAccount, to),
  ]);
}

/**
 * Clean: 40 holders, the largest with about 4 % and the ten largest with about 36 % (under the
 * 50 % concentration threshold); both authorities revoked; immutable metadata.
 */
export async function seedSplTokens(context: ScenarioContext): Promise<BuiltSubject[]> {
  const clean = await seedSplToken(context, {
    name: 'token:clean',
    label: 'token:clean',
    description:
      'SPL Token mint with mint and freeze authorities revoked, supply spread over 40 holders, immutable Metaplex metadata',
    allocations: Array.from({ length: 40 }, (_, i) => 40_000n - 750n * BigInt(i)),
    revoke: true,
    metadata: { name: 'Sandbox Clean', symbol: 'CLEAN', isMutable: false },
  });
  const live = await seedSplToken(context, {
    name: 'token:authorities-live',
    label: 'token:authorities-live',
    description:
      'SPL Token mint whose creator still holds both the mint and the freeze authority; mutable Metaplex metadata',
    allocations: [400_000n, 250_000n, 150_000n, 100_000n, 60_000n, 40_000n],
    revoke: false,
    metadata: { name: 'Sandbox Live Authority', symbol: 'LIVE', isMutable: true },
  });
  const concentrated = await seedSplToken(context, {
    name: 'token:concentrated',
    label: 'token:concentrated',
    description: 'SPL Token mint (authorities revoked) where one holder owns 90 % of the supply',
    allocations: [900_000n, 30_000n, 25_000n, 20_000n, 15_000n, 10_000n],
    revoke: true,
    metadata: { name: 'Sandbox Whale', symbol: 'WHALE', isMutable: false },
  });
  return [clean, live, concentrated];
}
