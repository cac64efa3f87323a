/**
 * Real token-program transactions for both SPL Token and Token-2022: the token-2022 client's base
 * instructions are byte-identical for SPL Token, so one set of builders serves both through `programAddress`.
 */
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  AuthorityType,
  type ExtensionArgs,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  getPostInitializeInstructionsForMintExtensions,
  getPreInitializeInstructionsForMintExtensions,
  getSetAuthorityInstruction,
} from '@solana-program/token-2022';
import type { SandboxChain } from '../../chain/chain.js';
import { submit } from '../../wallets.js';

export interface CreateMintOptions {
  payer: KeyPairSigner;
  mint: KeyPairSigner;
  tokenProgram: Address;
  decimals: number;
  mintAuthority: KeyPairSigner;
  freezeAuthority?: Address;
  /** Token-2022 extensions, initialized by the program in the same transaction. */
  extensions?: ExtensionArgs[];
}

/** Extensions the program writes after InitializeMint2, growing the account itself (TokenMetadata). */
const POST_INITIALIZE = new Set(['TokenMetadata', 'TokenGroup', 'TokenGroupMember']);

/** CreateAccount + extension initializers + InitializeMint2 (+ post-initializers), one transaction. */
export async function createMint(chain: SandboxChain, options: CreateMintOptions): Promise<string> {
  const extensions = options.extensions ?? [];
  const fixed = extensions.filter((e) => !POST_INITIALIZE.has(e.__kind));
  // getMintSize([]) is the extended-account size (166): a plain mint must be exactly 82 bytes.
  const space = fixed.length > 0 ? getMintSize(fixed) : getMintSize();
  // The account is created at its fixed size with the rent of its final one: the metadata
  // instructions grow it, and the program refuses to if the rent is not there already.
  const rentSpace = extensions.length > 0 ? getMintSize(extensions) : space;
  const config = { programAddress: options.tokenProgram };
  const instructions: Instruction[] = [
    getCreateAccountInstruction({
      payer: options.payer,
      newAccount: options.mint,
      lamports: chain.minimumBalanceForRentExemption(rentSpace),
      space,
      programAddress: options.tokenProgram,
    }),
    ...getPreInitializeInstructionsForMintExtensions(options.mint.address, extensions),
    getInitializeMint2Instruction(
      {
        mint: options.mint.address,
        decimals: options.decimals,
        mintAuthority: options.mintAuthority.address,
        freezeAuthority: options.freezeAuthority ?? null,
      },
      config,
    ),
    ...getPostInitializeInstructionsForMintExtensions(
      options.mint.address,
      options.mintAuthority,
      extensions,
    ),
  ];
  return (await submit(chain, options.payer, instructions)).signature;
}

export async function associatedTokenAccount(
  owner: Address,
  mint: Address,
  tokenProgram: Address,
): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram });
  return ata;
}

export interface Grant {
  owner: Address;
  amount: bigint;
}

/** Instructions that create each owner's ATA (idempotent) and mint its amount there. */
export async function mintToOwnersInstructions(
  payer: KeyPairSigner,
  mint: Address,
  mintAuthority: KeyPairSigner,
  tokenProgram: Address,
  decimals: number,
  grants: readonly Grant[],
): Promise<Instruction[]> {
  const instructions: Instruction[] = [];
  for (const { owner, amount } of grants) {
    const ata = await associatedTokenAccount(owner, mint, tokenProgram);
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner, mint, tokenProgram }),
      getMintToCheckedInstruction(
        { mint, token: ata, mintAuthority, amount, decimals },
        { programAddress: tokenProgram },
      ),
    );
  }
  return instructions;
}

/** Mints to many owners, a few per transaction (each holder adds two instructions and two keys). */
export async function mintToOwners(
  chain: SandboxChain,
  payer: KeyPairSigner,
  mint: Address,
  mintAuthority: KeyPairSigner,
  tokenProgram: Address,
  decimals: number,
  grants: readonly Grant[],
): Promise<string[]> {
  const signatures: string[] = [];
  const PER_TRANSACTION = 4;
  for (let i = 0; i < grants.length; i += PER_TRANSACTION) {
    const batch = grants.slice(i, i + PER_TRANSACTION);
    const instructions = await mintToOwnersInstructions(
      payer,
      mint,
      mintAuthority,
      tokenProgram,
      decimals,
      batch,
    );
    signatures.push((await submit(chain, payer, instructions)).signature);
  }
  return signatures;
}

/** SetAuthority(…, None) on the mint: the authority gives the power up for good. */
export function revokeMintAuthorityInstruction(
  mint: Address,
  authority: KeyPairSigner,
  tokenProgram: Address,
  authorityType: AuthorityType.MintTokens | AuthorityType.FreezeAccount,
): Instruction {
  return getSetAuthorityInstruction(
    { owned: mint, owner: authority, authorityType, newAuthority: null },
    { programAddress: tokenProgram },
  );
}

export { AuthorityType };

/** SetAuthority(…, newAuthority) on the mint: the power passes to another address (a multisig's signer, a DAO). */
export function handOverMintAuthorityInstruction(
  mint: Address,
  authority: KeyPairSigner,
  tokenProgram: Address,
  authorityType: AuthorityType.MintTokens | AuthorityType.FreezeAccount,
  newAuthority: Address,
): Instruction {
  return getSetAuthorityInstruction(
    { owned: mint, owner: authority, authorityType, newAuthority },
    { programAddress: tokenProgram },
  );
}
