/**
 * Fixed-offset readers for the DEX pool layouts (Raydium, Orca, Meteora). Those programs store
 * `#[repr(C, packed)]` or zero-copy structs, so a field is at the same offset in every account of
 * the kind; the callers check the length first, so these never read past the end.
 */
import { type Address, getAddressDecoder } from '@solana/kit';
import { hasDiscriminator } from './discriminator.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

const addressDecoder = getAddressDecoder();
const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);

export const addressAt = (data: Uint8Array, offset: number): Address =>
  addressDecoder.decode(data.subarray(offset, offset + 32));
export const u8At = (data: Uint8Array, offset: number): number => view(data).getUint8(offset);
export const u16At = (data: Uint8Array, offset: number): number => view(data).getUint16(offset, true);
export const u32At = (data: Uint8Array, offset: number): number => view(data).getUint32(offset, true);
export const i32At = (data: Uint8Array, offset: number): number => view(data).getInt32(offset, true);
export const u64At = (data: Uint8Array, offset: number): bigint => view(data).getBigUint64(offset, true);
export const u128At = (data: Uint8Array, offset: number): bigint =>
  u64At(data, offset) | (u64At(data, offset + 8) << 64n);

/** Checks an Anchor account's discriminator and minimum length before any field is read. */
export function checkLayout(
  data: Uint8Array,
  discriminator: readonly number[] | null,
  size: number,
  kind: string,
): DecodeResult<Uint8Array> {
  if (discriminator && !hasDiscriminator(data, discriminator)) {
    return data.length < 8
      ? notDecoded('truncated', `${data.length} bytes, no discriminator`)
      : notDecoded('wrong-kind', `discriminator is not ${kind}`);
  }
  if (data.length < size) return notDecoded('truncated', `${data.length} bytes, ${kind} has ${size}`);
  return decoded(data);
}
