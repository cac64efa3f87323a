/**
 * Metaplex Token Metadata `CreateMetadataAccountV3`, executed by the REAL Token Metadata program loaded from
 * the mainnet dump (so the account's layout, padding and tail are the program's own). Hand-encoded: there is
 * no kit client for Token Metadata in the project.
 */
import { AccountRole, type Address, type KeyPairSigner } from '@solana/kit';
import { findMetadataAddress, METADATA_DATA_CODEC } from '../../../solana/decoders/metaplex-metadata.js';
import { SYSTEM_PROGRAM, TOKEN_METADATA_PROGRAM } from '../../../solana/programs.js';
import type { SandboxChain } from '../../chain/chain.js';
import { submit } from '../../wallets.js';
import { bool, concatBytes, u8 } from './bytes.js';

const CREATE_METADATA_ACCOUNT_V3 = 33;

export interface CreateMetadataOptions {
  payer: KeyPairSigner;
  mint: Address;
  mintAuthority: KeyPairSigner;
  updateAuthority: Address;
  name: string;
  symbol: string;
  uri: string;
  isMutable: boolean;
}

function signerMeta(signer: KeyPairSigner, writable: boolean) {
  return {
    address: signer.address,
    role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
    signer,
  } as const;
}

export async function createMetadata(
  chain: SandboxChain,
  options: CreateMetadataOptions,
): Promise<{ address: Address; signature: string }> {
  const address = await findMetadataAddress(options.mint);
  const data = concatBytes(
    u8(CREATE_METADATA_ACCOUNT_V3),
    // DataV2: the account's Data (no seller fee, creators None), then collection None, uses None
    new Uint8Array(
      METADATA_DATA_CODEC.encode({
        name: options.name,
        symbol: options.symbol,
        uri: options.uri,
        sellerFeeBasisPoints: 0,
        creators: null,
      }),
    ),
    u8(0),
    u8(0),
    bool(options.isMutable),
    u8(0), // collection_details None
  );
  const payerIsMintAuthority = options.payer.address === options.mintAuthority.address;
  const { signature } = await submit(chain, options.payer, [
    {
      programAddress: TOKEN_METADATA_PROGRAM,
      accounts: [
        { address, role: AccountRole.WRITABLE },
        { address: options.mint, role: AccountRole.READONLY },
        signerMeta(options.mintAuthority, payerIsMintAuthority),
        signerMeta(options.payer, true),
        { address: options.updateAuthority, role: AccountRole.READONLY },
        { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
      ],
      data,
    },
  ]);
  return { address, signature };
}
