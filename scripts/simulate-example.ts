/** Prints the documented example body of POST /simulate/tx (src/catalog.ts): 1 USDC, unsigned. */
import { type Address, address } from '@solana/kit';
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { unsignedWireTransaction } from '../src/sandbox/unsigned.js';
import { USDC_MINT } from '../src/solana/programs.js';

const from = address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM');
const to = address('MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD');
const ata = async (owner: Address) =>
  (await findAssociatedTokenPda({ owner, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
const instruction = getTransferCheckedInstruction({
  source: await ata(from),
  mint: USDC_MINT,
  destination: await ata(to),
  authority: from,
  amount: 1_000_000n,
  decimals: 6,
});
process.stdout.write(`${unsignedWireTransaction(from, [instruction])}\n`);
