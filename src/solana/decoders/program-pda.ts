/** A program's PDA finder: seeds in, the derived address out (the bump is not needed by callers). */
import type { Address } from '@solana/kit';
import { findProgramDerivedAddress } from '../program-address.js';

export type Seeds = Parameters<typeof findProgramDerivedAddress>[0]['seeds'];

export const pdaOf =
  (programAddress: Address) =>
  async (seeds: Seeds): Promise<Address> =>
    (await findProgramDerivedAddress({ programAddress, seeds }))[0];
