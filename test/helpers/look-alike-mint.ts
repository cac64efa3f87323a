/** A token that looks like USDC (6 decimals, same payer holds it) but is not USDC. */
import { generateKeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { submit } from '../../src/sandbox/wallets.js';
import type { PaidSandbox } from './paid-sandbox.js';

export async function installLookAlikeMint(sandbox: PaidSandbox): Promise<string> {
  const mint = await generateKeyPairSigner();
  const authority = sandbox.usdcAuthority;
  const owners = [sandbox.payer.address, sandbox.payTo];
  const atas = await Promise.all(
    owners.map(
      async (owner) =>
        (await findAssociatedTokenPda({ owner, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0],
    ),
  );
  await submit(sandbox.chain, authority, [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: mint,
      lamports: 1_461_600n,
      space: getMintSize(),
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: authority.address }),
    ...owners.map((owner, i) =>
      getCreateAssociatedTokenIdempotentInstruction({
        payer: authority,
        ata: atas[i]!,
        owner,
        mint: mint.address,
      }),
    ),
    getMintToCheckedInstruction({
      mint: mint.address,
      token: atas[0]!,
      mintAuthority: authority,
      amount: 10_000_000n,
      decimals: 6,
    }),
  ]);
  return mint.address;
}
