/**
 * Pool vaults and LP mints written directly into the sandbox chain (they belong to DEX programs the
 * sandbox does not run), rent-exempt as on mainnet.
 */
import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM, WSOL_MINT } from '../../../solana/programs.js';
import type { ScenarioContext } from '../context.js';
import { encodeMintAccount, encodeTokenAccount } from './pool-layouts.js';

const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

/** An SPL token account; a wSOL one holds its amount as lamports too, as the token program keeps it. */
export function setTokenAccount(
  context: ScenarioContext,
  address: Address,
  mint: Address,
  owner: Address,
  amount: bigint,
) {
  const rent = context.chain.minimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE);
  const native = mint === WSOL_MINT;
  context.chain.setAccount({
    address,
    lamports: rent + (native ? amount : 0n),
    data: encodeTokenAccount(mint, owner, amount, native ? rent : undefined),
    owner: TOKEN_PROGRAM,
  });
}

export function setMintAccount(
  context: ScenarioContext,
  address: Address,
  mintAuthority: Address,
  supply: bigint,
  decimals: number,
) {
  context.chain.setAccount({
    address,
    lamports: context.chain.minimumBalanceForRentExemption(MINT_SIZE),
    data: encodeMintAccount(mintAuthority, supply, decimals),
    owner: TOKEN_PROGRAM,
  });
}
