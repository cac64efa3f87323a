/**
 * Orca Whirlpool `Position` accounts in their real layout (the offsets the decoder reads, checked
 * there against a real mainnet position), each with its position NFT: a mint of supply 1 and the
 * owner's token account holding it, at the PDA ["position", mint] Orca derives.
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import {
  WHIRLPOOL_POSITION_LAYOUT,
  WHIRLPOOL_POSITION_SIZE,
} from '../../../solana/decoders/orca-whirlpool-position.js';
import { ORCA_WHIRLPOOL_PROGRAM, TOKEN_PROGRAM } from '../../../solana/programs.js';
import type { ScenarioContext } from '../context.js';
import { encodeMintAccount, encodeTokenAccount } from './pool-layouts.js';

export interface WhirlpoolPositionFields {
  whirlpool: Address;
  positionMint: Address;
  liquidity: bigint;
  tickLower: number;
  tickUpper: number;
}

export function encodeWhirlpoolPosition(f: WhirlpoolPositionFields): Uint8Array {
  return new Uint8Array(
    WHIRLPOOL_POSITION_LAYOUT.encode({
      whirlpool: f.whirlpool,
      positionMint: f.positionMint,
      liquidity: f.liquidity,
      tickLowerIndex: f.tickLower,
      tickUpperIndex: f.tickUpper,
    }),
  );
}

/** Writes a position of `owner` in `whirlpool`, its NFT mint and the owner's account holding it. */
export async function seedWhirlpoolPosition(
  context: ScenarioContext,
  label: string,
  fields: Omit<WhirlpoolPositionFields, 'positionMint'> & { owner: Address },
): Promise<{ position: Address; positionMint: Address }> {
  const { chain, keys } = context;
  const positionMint = (await keys.signer(`${label}:nft-mint`)).address;
  const nftAccount = (await keys.signer(`${label}:nft-account`)).address;
  const [position] = await getProgramDerivedAddress({
    programAddress: ORCA_WHIRLPOOL_PROGRAM,
    seeds: ['position', getAddressEncoder().encode(positionMint)],
  });
  // Orca makes the position PDA the NFT's mint authority.
  chain.setAccount({
    address: positionMint,
    lamports: chain.minimumBalanceForRentExemption(82),
    data: encodeMintAccount(position, 1n, 0),
    owner: TOKEN_PROGRAM,
  });
  chain.setAccount({
    address: nftAccount,
    lamports: chain.minimumBalanceForRentExemption(165),
    data: encodeTokenAccount(positionMint, fields.owner, 1n),
    owner: TOKEN_PROGRAM,
  });
  chain.setAccount({
    address: position,
    lamports: chain.minimumBalanceForRentExemption(WHIRLPOOL_POSITION_SIZE),
    data: encodeWhirlpoolPosition({ ...fields, positionMint }),
    owner: ORCA_WHIRLPOOL_PROGRAM,
  });
  return { position, positionMint };
}
