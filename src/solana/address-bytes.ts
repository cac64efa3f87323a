/**
 * An address's 32 bytes, kept. Base58 decoding is big-integer work, and a scan turns the same few
 * addresses (its mint, SOL and USDC, the pool programs' configs) into PDA seeds again and again:
 * liquidity discovery alone orders the pair of mints by bytes and seeds a pool with them for each
 * of some seventy candidate pools. Bounded: cleared whole when full.
 */
import { type Address, getAddressEncoder, type ReadonlyUint8Array } from '@solana/kit';

const MEMO_SIZE = 10_000;
const kept = new Map<Address, ReadonlyUint8Array>();
const encoder = getAddressEncoder();

/** The address's bytes (kit's address encoder's answer; shared, so never to be written to). */
export function addressBytes(address: Address): ReadonlyUint8Array {
  let bytes = kept.get(address);
  if (bytes === undefined) {
    bytes = encoder.encode(address);
    if (kept.size >= MEMO_SIZE) kept.clear();
    kept.set(address, bytes);
  }
  return bytes;
}

/** In the shape of kit's address encoder, for the seed builders that take one. */
export const keptAddressEncoder = { encode: addressBytes } as const;
