/** Little-endian byte helpers for the instructions the scenarios write by hand. */
import { type Address, getAddressEncoder } from '@solana/kit';

const addressEncoder = getAddressEncoder();

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function u8(value: number): Uint8Array {
  return Uint8Array.of(value);
}

export function u16(value: number): Uint8Array {
  const out = new Uint8Array(2);
  new DataView(out.buffer).setUint16(0, value, true);
  return out;
}

export function u32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

export function u64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

export function bool(value: boolean): Uint8Array {
  return u8(value ? 1 : 0);
}

export function pubkey(address: Address): Uint8Array {
  return new Uint8Array(addressEncoder.encode(address));
}
