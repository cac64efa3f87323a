/**
 * `risk-scan call <path>`: pays for one call with x402 and prints the result — the quickest
 * way for an agent developer to try the API. Defaults to the running sandbox's payer.
 *
 * Each step that can fail on its environment (the API, the RPC, the payer's funds, the offer,
 * the facilitator's verdict) ends in a CliFailure whose one line says what to do; every request
 * is bounded by --timeout. Nothing is paid before the payer is known to hold the price.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
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
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { decodePaymentResponseHeader, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { errorMessage } from '../errors.js';
import { readKeypairFile } from '../sandbox/keypair-file.js';
import { type CliFailure, callFailures, isTimeout } from './failures.js';

const CAIP2_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
/** USDC has 6 decimals; --max-usd compares against the offer's amount in its units. */
const USDC_UNITS = 1e6;

export interface CallOptions {
  readonly path: string;
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  readonly maxUsd: number;
  readonly sandboxDir: string;
  /** Longest wait for each answer (API or RPC), in seconds. */
  readonly timeoutS: number;
  /** A JSON body: the call is then a POST (e.g. /simulate/tx), the same body paid and unpaid. */
  readonly data?: string;
  /** Told the price just before the signed payment is sent: from then on it may settle. A throw here stops it unsent. */
  readonly onPaymentSent?: (priceUsd: number) => void;
}

/** GET, or a POST of `data` as JSON. */
function requestInit(
  data: string | undefined,
  headers: Record<string, string>,
  timeoutS: number,
): RequestInit {
  const signal = AbortSignal.timeout(timeoutS * 1000);
  if (data === undefined) return { headers, signal };
  return { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: data, signal };
}

interface SandboxManifest {
  readonly apiUrl?: string;
  readonly rpcUrl?: string;
  readonly payer?: { readonly address?: string; readonly keypair?: string };
}

async function readManifest(dir: string): Promise<{ path: string; manifest: SandboxManifest } | null> {
  const path = resolve(dir, 'sandbox.json');
  try {
    return { path, manifest: JSON.parse(await readFile(path, 'utf8')) as SandboxManifest };
  } catch {
    return null;
  }
}

export interface CallOutcome {
  readonly status: number;
  readonly paidUsd: number | null;
  readonly settlement: unknown;
  readonly body: unknown;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

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

/** Why the RPC at `url` failed `method`, as the CliFailure that says so. */
function rpcFailure(url: string, method: string, e: unknown, timeoutS: number): CliFailure {
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

/** One account, or a CliFailure naming the RPC's URL; each read waits at most `timeoutS`. */
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

/** Picks the offer this client can pay, or says why there is none. */
function payableOffer(required: PaymentRequired, body: unknown): PaymentRequirements {
  const offers = required.accepts ?? [];
  const exact = offers.filter((o) => o.scheme === 'exact' && o.network === CAIP2_MAINNET);
  if (exact.length === 0) {
    const offered = offers.map((o) => `${o.scheme} on ${o.network}`).join(', ') || 'nothing';
    throw callFailures.unpayable(
      `it offers ${offered}, and this client pays only the "exact" scheme on Solana mainnet (${CAIP2_MAINNET})`,
    );
  }
  const withFeePayer = exact.find((o) => typeof o.extra?.feePayer === 'string' && o.extra.feePayer !== '');
  if (withFeePayer === undefined) {
    const said = (body as { error?: unknown } | null)?.error;
    throw callFailures.unpayable(
      `its offer names no fee payer (extra.feePayer), which a Solana payment needs: none of the API's facilitators answered it${typeof said === 'string' ? ` (the API says: ${said.replace(/\.$/, '')})` : ''}. Try again later`,
    );
  }
  if (!/^\d+$/.test(withFeePayer.amount))
    throw callFailures.unpayable(
      `its amount ${JSON.stringify(withFeePayer.amount)} is not a number of units`,
    );
  return withFeePayer;
}

/** What to do about an empty payer: in the sandbox, its own test payer or a restart. */
function howToGetMore(payer: Address, sandbox: SandboxManifest | null, price: string): string {
  if (sandbox === null)
    return `Send at least ${price} USDC to ${payer} on Solana mainnet, or pass --keypair FILE of a funded payer.`;
  if (sandbox.payer?.address === payer)
    return 'The sandbox has no USDC faucet: restart it (npm start), and it funds a new test payer with 1000 test USDC.';
  return `The sandbox has no USDC faucet: pay with its funded test payer (leave out --keypair; it is ${sandbox.payer?.keypair ?? 'payer.json in SANDBOX_DIR'}).`;
}

/** Fails, before anything is signed, when the payer's token account cannot cover the offer. */
async function checkFunds(
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

export async function payAndCall(options: CallOptions): Promise<CallOutcome> {
  const found = await readManifest(options.sandboxDir);
  const defaults = found?.manifest ?? {};
  const api = options.api ?? defaults.apiUrl;
  const rpcUrl = options.rpc ?? defaults.rpcUrl;
  const keypairPath = options.keypair ?? defaults.payer?.keypair;
  if (!api) throw callFailures.noApi();
  if (!rpcUrl) throw callFailures.noRpc();
  if (!keypairPath) throw callFailures.noKeypair();
  if (!options.path.startsWith('/')) throw callFailures.badPath();
  if (!URL.canParse(api))
    throw callFailures.badOption(`--api ${api} is not a URL (e.g. http://127.0.0.1:8402).`);
  if (!URL.canParse(rpcUrl))
    throw callFailures.badOption(`--rpc ${rpcUrl} is not a URL (e.g. http://127.0.0.1:8899).`);
  const payer = await readKeypairFile(keypairPath);
  const url = new URL(options.path, api).href;
  const timeoutS = options.timeoutS;
  const apiFrom = options.api === undefined && found !== null ? found.path : null;
  // The sandbox's manifest speaks for the API only when the API is the sandbox's.
  const sandbox =
    found !== null && defaults.apiUrl !== undefined && new URL(defaults.apiUrl).origin === new URL(api).origin
      ? defaults
      : null;

  const probe = await fetch(url, requestInit(options.data, {}, timeoutS)).catch((e: unknown) => {
    throw callFailures.apiUnreachable(api, e, timeoutS, apiFrom);
  });
  const probeBody: unknown = await probe.json().catch(() => null);
  if (probe.status !== 402) return { status: probe.status, paidUsd: null, settlement: null, body: probeBody };
  const header = probe.headers.get('payment-required');
  if (!header) throw callFailures.noAnswerForPayment(api, probe.status);
  let required: PaymentRequired;
  try {
    required = decodePaymentRequiredHeader(header);
  } catch {
    throw callFailures.unpayable('its PAYMENT-REQUIRED header cannot be decoded');
  }
  const offer = payableOffer(required, probeBody);
  const priceUsd = Number(offer.amount) / USDC_UNITS;
  if (!(priceUsd <= options.maxUsd)) throw callFailures.overBudget(priceUsd, options.maxUsd);
  await checkFunds(rpcUrl, payer, offer, sandbox, timeoutS);

  const client = new x402Client().register(CAIP2_MAINNET, new ExactSvmScheme(payer, { rpcUrl }));
  const payload = await withTimeout(
    client.createPaymentPayload({ ...required, accepts: [offer] }),
    timeoutS * 1000,
  ).catch((e: unknown) => {
    throw isTimeout(e)
      ? callFailures.rpcUnreachable(rpcUrl, e, timeoutS)
      : callFailures.rpcRefused(rpcUrl, `the payment could not be built (${errorMessage(e)})`, e);
  });
  const headers = new x402HTTPClient(client).encodePaymentSignatureHeader(payload);
  options.onPaymentSent?.(priceUsd);
  const res = await fetch(url, requestInit(options.data, headers, timeoutS)).catch((e: unknown) => {
    throw callFailures.paidCallLost(api, e, timeoutS);
  });
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 402) {
    const reason = (body as { error?: unknown } | null)?.error;
    throw callFailures.refused(typeof reason === 'string' ? reason : 'the API gave no reason');
  }
  const receipt = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  return {
    status: res.status,
    paidUsd: res.status === 200 ? priceUsd : null,
    settlement: receipt ? decodePaymentResponseHeader(receipt) : null,
    body,
  };
}
