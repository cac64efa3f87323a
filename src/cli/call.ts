/**
 * `risk-scan call <path>`: pays for one call with x402 and prints the result — the quickest
 * way for an agent developer to try the API. Defaults to the running sandbox's payer.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { readKeypairFile } from '../sandbox/keypair-file.js';

const CAIP2_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

export interface CallOptions {
  readonly path: string;
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  readonly maxUsd: number;
  readonly sandboxDir: string;
}

export class CallError extends Error {
  override readonly name = 'CallError';
}

async function sandboxDefaults(dir: string): Promise<{ apiUrl?: string; rpcUrl?: string; keypair?: string }> {
  try {
    const manifest = JSON.parse(await readFile(resolve(dir, 'sandbox.json'), 'utf8'));
    return { apiUrl: manifest.apiUrl, rpcUrl: manifest.rpcUrl, keypair: manifest.payer?.keypair };
  } catch {
    return {};
  }
}

export interface CallOutcome {
  readonly status: number;
  readonly paidUsd: number | null;
  readonly settlement: unknown;
  readonly body: unknown;
}

export async function payAndCall(options: CallOptions): Promise<CallOutcome> {
  const defaults = await sandboxDefaults(options.sandboxDir);
  const api = options.api ?? defaults.apiUrl;
  const rpcUrl = options.rpc ?? defaults.rpcUrl;
  const keypairPath = options.keypair ?? defaults.keypair;
  if (!api) throw new CallError('no API URL: pass --api, or start the sandbox (npm start) first');
  if (!rpcUrl) throw new CallError('no Solana RPC URL: pass --rpc');
  if (!keypairPath) throw new CallError('no payer keypair: pass --keypair FILE (Solana CLI format)');
  if (!options.path.startsWith('/'))
    throw new CallError('the path must start with "/", e.g. /scan/token/<mint>');
  const url = new URL(options.path, api).href;

  const probe = await fetch(url);
  if (probe.status !== 402)
    return {
      status: probe.status,
      paidUsd: null,
      settlement: null,
      body: await probe.json().catch(() => null),
    };
  const header = probe.headers.get('payment-required');
  if (!header) throw new CallError('the server answered 402 without a PAYMENT-REQUIRED header');
  const offer = decodePaymentRequiredHeader(header).accepts[0];
  const priceUsd = Number(offer?.amount ?? Number.NaN) / 1e6;
  if (!(priceUsd <= options.maxUsd)) {
    throw new CallError(
      `the call costs ${priceUsd} USDC, more than --max-usd ${options.maxUsd}; nothing was paid`,
    );
  }
  const payer = await readKeypairFile(keypairPath);
  const client = new x402Client().register(CAIP2_MAINNET, new ExactSvmScheme(payer, { rpcUrl }));
  const res = await wrapFetchWithPayment(fetch, client)(url);
  const receipt = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  return {
    status: res.status,
    paidUsd: res.status === 200 ? priceUsd : null,
    settlement: receipt ? decodePaymentResponseHeader(receipt) : null,
    body: await res.json().catch(() => null),
  };
}
