/**
 * `create_program_address` with an explicit bump: kit exports only the search from 255 down
 * (`getProgramDerivedAddress`), but the Coral multisig stores its signer's nonce, and a signer
 * derived with a non-canonical nonce must still be recognised.
 */
import { createHash } from 'node:crypto';
import { type Address, getAddressDecoder, getAddressEncoder, isOffCurveAddress } from '@solana/kit';

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');

/** The address for these exact seeds (bump included), or null when it falls on the curve. */
export function createProgramAddress(seeds: readonly Uint8Array[], programAddress: Address): Address | null {
  const hash = createHash('sha256');
  for (const seed of seeds) hash.update(seed);
  hash.update(getAddressEncoder().encode(programAddress) as Uint8Array);
  hash.update(PDA_MARKER);
  const candidate = getAddressDecoder().decode(hash.digest());
  return isOffCurveAddress(candidate) ? candidate : null;
}
