/**
 * Hand-built account bytes for edge cases, written field by field at the documented offsets
 * (risk-research §2.2–2.3) rather than with the decoders' own codecs, so a decoder bug cannot
 * cancel itself out.
 */
import type { Address } from '@solana/kit';
import bs58 from 'bs58';

export function key(value: Address | string): Uint8Array {
  return bs58.decode(value);
}

export function u16(value: number): Uint8Array {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, value, true);
  return bytes;
}

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

export function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

export function i64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigInt64(0, value, true);
  return bytes;
}

export function f64(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return bytes;
}

export function concat(...parts: (Uint8Array | readonly number[])[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export const ZERO_KEY = new Uint8Array(32);

/** An 82-byte mint base. `staleMintKey` fills the key slot even when the tag says None. */
export function mintBase(options: {
  mintAuthority?: Address | null;
  staleMintKey?: Address;
  freezeAuthority?: Address | null;
  supply?: bigint;
  decimals?: number;
  mintTag?: number;
}): Uint8Array {
  const mintAuthority = options.mintAuthority ?? null;
  const freezeAuthority = options.freezeAuthority ?? null;
  const mintKey = mintAuthority ?? options.staleMintKey;
  return concat(
    u32(options.mintTag ?? (mintAuthority ? 1 : 0)),
    mintKey ? key(mintKey) : ZERO_KEY,
    u64(options.supply ?? 0n),
    [options.decimals ?? 0, 1],
    u32(freezeAuthority ? 1 : 0),
    freezeAuthority ? key(freezeAuthority) : ZERO_KEY,
  );
}

/** One Token-2022 TLV entry: type u16 | length u16 | value. */
export function tlv(type: number, value: Uint8Array): Uint8Array {
  return concat(u16(type), u16(value.length), value);
}

/** A Token-2022 extended account: base, zero padding to 165, account type, TLV entries. */
export function extendedAccount(base: Uint8Array, accountType: number, ...entries: Uint8Array[]): Uint8Array {
  const padded = new Uint8Array(165);
  padded.set(base);
  return concat(padded, [accountType], ...entries);
}
