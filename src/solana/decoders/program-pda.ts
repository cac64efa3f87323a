/** A program's PDA finder: seeds in, the derived address out (the bump is not needed by callers). */
import { type Address, getProgramDerivedAddress } from '@solana/kit';

export type Seeds = Parameters<typeof getProgramDerivedAddress>[0]['seeds'];

export const pdaOf =
  (programAddress: Address) =>
  async (seeds: Seeds): Promise<Address> =>
    (await getProgramDerivedAddress({ programAddress, seeds }))[0];
