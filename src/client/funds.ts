/**
 * The payer's funds, read before anything is signed: a call whose payer cannot cover the offer
 * ends in a WordedFailure that says how much it holds and how to get more.
 */
import {
  type Address,
  address,
  createSolanaRpc,
  type EncodedAccount,
  fetchEncodedAccount,
  isAddress,
  isSolanaError,
  type KeyPairSigner,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit';
import {
  decodeMint,
  decodeToken,
  findAssociatedTokenPda,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  decodeMint as decodeMint2022,
  decodeToken as decodeToken2022,
  TOKEN_2022_PROGRAM_ADDRESS,
} from '@solana-program/token-2022';
import type { PaymentRequirements } from '@x402/core/types';
import { callFailures, type WordedFailure } from './failures.js';
import type { SandboxManifest } from './sandbox-manifest.js';

type Rpc = ReturnType<typeof createSolanaRpc>;

/** How each token program's mints and token accounts read; an offer's asset may be in either. */
const TOKEN_PROGRAMS: Record<
  string,
  {
    readonly decodeMint: (account: EncodedAccount) => { data: { decimals: number } };
    readonly decodeToken: (account: EncodedAccount) => { data: { amount: bigint } };
  }
> = {
  [TOKEN_PROGRAM_ADDRESS]: { decodeMint, decodeToken },
  [TOKEN_2022_PROGRAM_ADDRESS]: { decodeMint: decodeMint2022, decodeToken: decodeToken2022 },
};

/** Why the RPC at `url` failed `method`, as the WordedFailure that says so. */
function rpcFailure(url: string, method: string, e: unknown, timeoutS: number): WordedFailure {
  if (isSolanaError(e, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR))
    return callFailures.rpcRefused(url, `it answered HTTP ${e.context.statusCode} to ${method}`, e);
  if (isSolanaError(e)) {
    const said = e.context as { __serverMessage?: string; message?: string };
    return callFailures.rpcRefused(
      url,
      `${method} failed: ${said.__serverMessage ?? said.message ?? e.message}`,
      e,
    );
  }
  // fetch's own failures carry a cause; a TypeError without one is kit choking on the answer
  // (an answer that is not JSON-RPC, or an error code kit does not know: anza-xyz/kit#317).
  if (e instanceof SyntaxError || (e instanceof TypeError && e.cause === undefined))
    return callFailures.rpcRefused(url, 'its answer is not JSON-RPC', e);
  return callFailures.rpcUnreachable(url, e, timeoutS);
}

/** One account, or a WordedFailure naming the RPC's URL; each read waits at most `timeoutS`. */
async function fetchAccount(rpc: Rpc, url: string, account: Address, timeoutS: number) {
  try {
    return await fetchEncodedAccount(rpc, account, { abortSignal: AbortSignal.timeout(timeoutS * 1000) });
  } catch (e) {
    throw rpcFailure(url, 'getAccountInfo', e, timeoutS);
  }
}

/** The asset's token program and decimals, or null when it is no mint of a token program. */
async function readMint(rpc: Rpc, url: string, asset: string, timeoutS: number) {
  if (!isAddress(asset)) return null;
  const account = await fetchAccount(rpc, url, asset, timeoutS);
  const program = account.exists ? TOKEN_PROGRAMS[account.programAddress] : undefined;
  if (!account.exists || program === undefined) return null;
  try {
    return {
      program,
      programAddress: account.programAddress,
      decimals: program.decodeMint(account).data.decimals,
    };
  } catch {
    return null;
  }
}

const amountText = (units: bigint, decimals: number) => {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${units / scale}${fraction ? `.${fraction}` : ''}`;
};

/** What to do about an empty payer: in the sandbox, its own test payer or a restart. */
function howToGetMore(payer: Address, sandbox: SandboxManifest | null, price: string): string {
  if (sandbox === null)
    return `Send at least ${price} USDC to ${payer} on Solana mainnet, or pass --keypair FILE of a funded payer.`;
  if (sandbox.payer?.address === payer)
    return 'The sandbox has no USDC faucet: restart it (npm start), and it funds a new test payer with 1000 test USDC.';
  return `The sandbox has no USDC faucet: pay with its funded test payer (leave out --keypair; it is ${sandbox.payer?.keypair ?? 'payer.json in SANDBOX_DIR'}).`;
}

/** Fails, before anything is signed, when the payer's token account cannot cover the offer. */
export async function checkFunds(
  rpcUrl: string,
  payer: KeyPairSigner,
  offer: PaymentRequirements,
  sandbox: SandboxManifest | null,
  timeoutS: number,
): Promise<void> {
  const rpc = createSolanaRpc(rpcUrl);
  const mint = await readMint(rpc, rpcUrl, offer.asset, timeoutS);
  if (mint === null)
    throw callFailures.rpcRefused(
      rpcUrl,
      `the offer's asset ${offer.asset} is not a token mint on its chain (is it the API's network?)`,
    );
  const [ata] = await findAssociatedTokenPda({
    mint: address(offer.asset),
    owner: payer.address,
    tokenProgram: mint.programAddress,
  });
  const account = await fetchAccount(rpc, rpcUrl, ata, timeoutS);
  // Lamports sent to the address before the account is made leave it the System program's.
  const holds =
    account.exists && account.programAddress === mint.programAddress
      ? mint.program.decodeToken(account).data.amount
      : 0n;
  const price = BigInt(offer.amount);
  if (holds >= price) return;
  const priceText = amountText(price, mint.decimals);
  throw callFailures.notEnoughUsdc(
    payer.address,
    amountText(holds, mint.decimals),
    priceText,
    howToGetMore(payer.address, sandbox, priceText),
  );
}
