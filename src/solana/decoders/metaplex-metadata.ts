/**
 * Metaplex Token Metadata `MetadataV1` accounts — name, symbol, uri and mutability of SPL Token
 * mints (legacy pump.fun coins included). Hand-written with kit codecs: there is no
 * `@solana-program/*` package for Token Metadata.
 *
 * Layout (Borsh, risk-research §2.4): key u8 | update_authority | mint | name | symbol | uri
 * (u32-prefixed, historically NUL-padded to 32/10/200) | seller_fee_basis_points u16 |
 * creators Option<Vec<{address, verified, share}>> | primary_sale_happened | is_mutable |
 * edition_nonce Option<u8> | token_standard Option<u8> | … The fields after `is_mutable` are read
 * only when they are well-formed: real accounts carry non-canonical tails there.
 */
import {
  type Address,
  addCodecSizePrefix,
  getAddressEncoder,
  getArrayCodec,
  getOptionCodec,
  getStructCodec,
  getStructDecoder,
  getUtf8Codec,
  unwrapOption,
} from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';
import { TOKEN_METADATA_PROGRAM } from '../programs.js';
import { field } from './layout.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';

/** `Key::MetadataV1`, the first byte of every metadata account. */
export const METADATA_V1_KEY = 4;
/** key + two keys + three empty strings + fee + creators tag + two bools. */
const MIN_METADATA_SIZE = 1 + 32 + 32 + 4 * 3 + 2 + 1 + 1 + 1;

export const TOKEN_STANDARDS = [
  'NonFungible',
  'FungibleAsset',
  'Fungible',
  'NonFungibleEdition',
  'ProgrammableNonFungible',
  'ProgrammableNonFungibleEdition',
] as const;
export type TokenStandard = (typeof TOKEN_STANDARDS)[number];

export interface MetadataCreator {
  readonly address: Address;
  readonly verified: boolean;
  readonly share: number;
}

export interface DecodedMetadata {
  readonly key: number;
  /** Can change name, symbol and uri while `isMutable` is true. */
  readonly updateAuthority: Address;
  /** The mint this metadata describes; check it equals the mint you derived the PDA from. */
  readonly mint: Address;
  readonly name: string;
  readonly symbol: string;
  readonly uri: string;
  readonly sellerFeeBasisPoints: number;
  readonly creators: readonly MetadataCreator[] | null;
  readonly primarySaleHappened: boolean;
  readonly isMutable: boolean;
  /** Null when absent or when the tail is not canonical. */
  readonly editionNonce: number | null;
  /** Null when absent (older accounts) or unreadable. */
  readonly tokenStandard: TokenStandard | null;
}

// Kit's UTF-8 decoder drops NUL characters, which is exactly the padding old accounts carry.
const borshString = addCodecSizePrefix(getUtf8Codec(), field.u32);

/**
 * Token Metadata's `Data` (name, symbol, uri, seller fee, creators): what a metadata account holds
 * after its key, authority and mint, and what CreateMetadataAccountV3's DataV2 begins with.
 */
export const METADATA_DATA_CODEC = getStructCodec([
  ['name', borshString],
  ['symbol', borshString],
  ['uri', borshString],
  ['sellerFeeBasisPoints', field.u16],
  [
    'creators',
    getOptionCodec(
      getArrayCodec(
        getStructCodec([
          ['address', field.address],
          ['verified', field.bool],
          ['share', field.u8],
        ]),
        { size: field.u32 },
      ),
    ),
  ],
]);

const metadataHeadDecoder = getStructDecoder([
  ['key', field.u8],
  ['updateAuthority', field.address],
  ['mint', field.address],
  ['data', METADATA_DATA_CODEC],
  ['primarySaleHappened', field.bool],
  ['isMutable', field.bool],
]);

/** Reads a Borsh `Option<u8>` at `offset`; undefined when the bytes there are not one. */
function readOptionalU8(
  data: Uint8Array,
  offset: number,
): { value: number | null; next: number } | undefined {
  const tag = data[offset];
  if (tag === 0) return { value: null, next: offset + 1 };
  const value = data[offset + 1];
  if (tag === 1 && value !== undefined) return { value, next: offset + 2 };
  return undefined;
}

function readTail(data: Uint8Array, offset: number): Pick<DecodedMetadata, 'editionNonce' | 'tokenStandard'> {
  const editionNonce = readOptionalU8(data, offset);
  if (!editionNonce) return { editionNonce: null, tokenStandard: null };
  const standard = readOptionalU8(data, editionNonce.next);
  const tokenStandard = standard?.value == null ? null : (TOKEN_STANDARDS[standard.value] ?? null);
  return { editionNonce: editionNonce.value, tokenStandard };
}

export function decodeMetadata(data: Uint8Array): DecodeResult<DecodedMetadata> {
  if (data.length === 0) return notDecoded('truncated', 'empty account');
  if (data[0] !== METADATA_V1_KEY) return notDecoded('wrong-kind', `key ${data[0]} is not MetadataV1 (4)`);
  if (data.length < MIN_METADATA_SIZE) {
    return notDecoded('truncated', `${data.length} bytes, metadata has at least ${MIN_METADATA_SIZE}`);
  }
  const head = tryDecode(() => metadataHeadDecoder.read(data, 0), 'metadata');
  if (!head.ok) return head;
  const [{ key, updateAuthority, mint, data: fields, primarySaleHappened, isMutable }, tailOffset] =
    head.value;
  return decoded({
    key,
    updateAuthority,
    mint,
    ...fields,
    creators: unwrapOption(fields.creators),
    primarySaleHappened,
    isMutable,
    ...readTail(data, tailOffset),
  });
}

/** The metadata PDA of `mint`: seeds ["metadata", program id, mint] under the Token Metadata program. */
export async function findMetadataAddress(mint: Address): Promise<Address> {
  const encoder = getAddressEncoder();
  const [pda] = await findProgramDerivedAddress({
    programAddress: TOKEN_METADATA_PROGRAM,
    seeds: ['metadata', encoder.encode(TOKEN_METADATA_PROGRAM), encoder.encode(mint)],
  });
  return pda;
}
