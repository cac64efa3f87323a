/**
 * Two encodings of "no address" on Solana, normalised to `null`:
 * - Token-2022 extensions use OptionalNonZeroPubkey: 32 zero bytes mean None (no tag).
 * - COption / Option fields carry a tag; kit decodes those into `Option<Address>`.
 */
import { type Address, isSome, type Option } from '@solana/kit';

/** The all-zero key, as base58. */
export const ZERO_ADDRESS = '11111111111111111111111111111111' as Address;

export function nonZeroAddress(value: Address): Address | null {
  return value === ZERO_ADDRESS ? null : value;
}

/**
 * `Some(key)` → key, `None` → null. For tagged options (SPL COption) the tag alone decides: a
 * revoked authority keeps its stale key bytes behind a None tag, so the bytes must not be read.
 */
export function optionalAddress(value: Option<Address>): Address | null {
  return isSome(value) ? value.value : null;
}
