import bs58 from 'bs58';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
export const MEMO_V1_PROGRAM = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
export const MEMO_V2_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** The default of @solana-program/memo 0.15; LiteSVM 1.5 does not ship it. */
export const MEMO_V3_PROGRAM = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH';

/** The genesis hash of mainnet-beta: the sandbox poses as mainnet so CAIP-2 ids (`solana:5eykt…`) line up. */
export const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

export class InvalidAddressError extends Error {
  constructor(readonly address: string) {
    super(`invalid address: ${address}`);
    this.name = 'InvalidAddressError';
  }
}

// Decoding the same few hundred addresses over and over is the hot path of every RPC call;
// bs58 plus a bounded cache is several times cheaper than kit's codec.
const decoded = new Map<string, Uint8Array>();
const CACHE_LIMIT = 50_000;

/** Address text → 32 bytes; throws InvalidAddressError for anything else. */
export function addressBytes(address: string): Uint8Array {
  const hit = decoded.get(address);
  if (hit) return hit;
  const bytes = typeof address === 'string' ? bs58.decodeUnsafe(address) : undefined;
  if (bytes?.length !== 32) throw new InvalidAddressError(String(address));
  if (decoded.size >= CACHE_LIMIT) decoded.clear();
  decoded.set(address, bytes);
  return bytes;
}

export function isAddress(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  try {
    addressBytes(text);
    return true;
  } catch {
    return false;
  }
}

export function addressText(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

export function bytesEqualAt(haystack: Uint8Array, offset: number, needle: Uint8Array): boolean {
  if (offset < 0 || offset + needle.length > haystack.length) return false;
  for (let i = 0; i < needle.length; i++) if (haystack[offset + i] !== needle[i]) return false;
  return true;
}
