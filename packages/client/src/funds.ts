/**
 * The payer's funds, read before anything is signed: a call whose payer cannot cover the offer
 * ends in a RiskScanError that says how much it holds and how to get more.
 */
import {
  type Address,
  address,
  createSolanaRpc,
  type EncodedAccount,
  fetchEncodedAccount,
  isAddress,
  isSolanaError,
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
import type { PayFailures, RiskScanError } from './errors.js';

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

/** Why the RPC at `url` failed `method`, as the RiskScanError that says so. */
function rpcFailure(
  failures: PayFailures,
  url: string,
  method: string,
  e: unknown,
  timeoutS: number,
): RiskScanError {
  if (isSolanaError(e, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR))
    return failures.rpcRefused(url, `it answered HTTP ${e.context.statusCode} to ${method}`, e);
  if (isSolanaError(e)) {
    const said = e.context as { __serverMessage?: string; message?: string };
    return failures.rpcRefused(
      url,
      `${method} failed: ${said.__serverMessage ?? said.message ?? e.message}`,
      e,
    );
  }
  // fetch's own failures carry a cause; a TypeError without one is kit choking on the answer
  // (an answer that is not JSON-RPC, or an error code kit does not know: anza-xyz/kit#317).
  if (e instanceof SyntaxError || (e instanceof TypeError && e.cause === undefined))
    return failures.rpcRefused(url, 'its answer is not JSON-RPC', e);
  return failures.rpcUnreachable(url, e, timeoutS);
}

/** The RPC a payment is checked against, and how its failures are worded. */
interface RpcContext {
  readonly rpc: Rpc;
  readonly url: string;
  readonly timeoutS: number;
  readonly failures: PayFailures;
}

/** One account, or a RiskScanError naming the RPC's URL; each read waits at most `timeoutS`. */
async function fetchAccount(ctx: RpcContext, account: Address) {
  try {
    return await fetchEncodedAccount(ctx.rpc, account, {
      abortSignal: AbortSignal.timeout(ctx.timeoutS * 1000),
    });
  } catch (e) {
    throw rpcFailure(ctx.failures, ctx.url, 'getAccountInfo', e, ctx.timeoutS);
  }
}

/** The asset's token program and decimals, or null when it is no mint of a token program. */
async function readMint(ctx: RpcContext, asset: string) {
  if (!isAddress(asset)) return null;
  const account = await fetchAccount(ctx, asset);
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

/** Fails, before anything is signed, when the payer's token account cannot cover the offer. */
export async function checkFunds(
  rpcUrl: string,
  payer: Address,
  offer: PaymentRequirements,
  timeoutS: number,
  failures: PayFailures,
): Promise<void> {
  const ctx: RpcContext = { rpc: createSolanaRpc(rpcUrl), url: rpcUrl, timeoutS, failures };
  const mint = await readMint(ctx, offer.asset);
  if (mint === null)
    throw failures.rpcRefused(
      rpcUrl,
      `the offer's asset ${offer.asset} is not a token mint on its chain (is it the API's network?)`,
    );
  const [ata] = await findAssociatedTokenPda({
    mint: address(offer.asset),
    owner: payer,
    tokenProgram: mint.programAddress,
  });
  const account = await fetchAccount(ctx, ata);
  // Lamports sent to the address before the account is made leave it the System program's.
  const holds =
    account.exists && account.programAddress === mint.programAddress
      ? mint.program.decodeToken(account).data.amount
      : 0n;
  const price = BigInt(offer.amount);
  if (holds >= price) return;
  throw failures.notEnoughUsdc(payer, amountText(holds, mint.decimals), amountText(price, mint.decimals));
}
