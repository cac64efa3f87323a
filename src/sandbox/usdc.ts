/**
 * USDC in the sandbox: the real mainnet mint address (SPL Token, 6 decimals), minted by a
 * sandbox authority, so x402 clients and facilitators see the asset they see on mainnet.
 */
import { type Address, address, type KeyPairSigner, none, some } from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintEncoder,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { SandboxChain } from './chain/chain.js';
import { submit } from './wallets.js';

export const USDC_MINT: Address = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
export const USDC_DECIMALS = 6;
const MINT_RENT_LAMPORTS = 1_461_600n;

/** Writes the USDC mint account with `authority` as mint authority and no freeze authority. */
export function installUsdcMint(chain: SandboxChain, authority: Address): void {
  // The supply starts at 0 and grows through real MintToChecked transactions.
  const data = new Uint8Array(
    getMintEncoder().encode({
      mintAuthority: some(authority),
      supply: 0n,
      decimals: USDC_DECIMALS,
      isInitialized: true,
      freezeAuthority: none(),
    }),
  );
  chain.setAccount({ address: USDC_MINT, lamports: MINT_RENT_LAMPORTS, data, owner: TOKEN_PROGRAM_ADDRESS });
}

export async function usdcAccountOf(owner: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}

/** Creates each owner's USDC account (idempotent) and mints `amounts` to it, in one transaction. */
export async function fundUsdc(
  chain: SandboxChain,
  authority: KeyPairSigner,
  grants: readonly { owner: Address; amount: bigint }[],
): Promise<string> {
  const instructions = [];
  for (const { owner, amount } of grants) {
    const ata = await usdcAccountOf(owner);
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner, mint: USDC_MINT }),
    );
    if (amount > 0n) {
      instructions.push(
        getMintToCheckedInstruction({
          mint: USDC_MINT,
          token: ata,
          mintAuthority: authority,
          amount,
          decimals: USDC_DECIMALS,
        }),
      );
    }
  }
  return (await submit(chain, authority, instructions)).signature;
}
