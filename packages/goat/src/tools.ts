/**
 * The scans as GOAT tools: one `@Tool` per paid scan, each paying from the wallet client GOAT
 * hands it, through one RiskScanClient per wallet (so the budget holds across that wallet's calls).
 */
import 'reflect-metadata';
import { Tool } from '@goat-sdk/core';
import { SolanaWalletClient } from '@goat-sdk/wallet-solana';
import type { TransactionPartialSigner } from '@solana/kit';
import {
  type GatePolicy,
  type GateVerdict,
  gate,
  type Paid,
  RiskScanClient,
  type RiskScanClientOptions,
  type ScanResult,
} from '@solana-risk-scan/client';
import {
  MintParameters,
  ProgramParameters,
  SignatureParameters,
  SimulateParameters,
  WalletParameters,
} from './parameters.js';
import { goatWalletSigner } from './wallet-signer.js';

export interface RiskScanGoatOptions extends Omit<RiskScanClientOptions, 'rpcUrl' | 'signer'> {
  /** The RPC the payment is built against; default: the wallet client's own connection. */
  readonly rpcUrl?: string;
  /** Who pays; default: the wallet client GOAT passes to the tool. */
  readonly signer?: TransactionPartialSigner;
  /** The policy each result's verdict is worked out by; default: the client's DEFAULT_POLICY. */
  readonly policy?: GatePolicy;
}

/** What a tool answers: the verified result, the verdict on it, and what it cost. */
export interface RiskScanAnswer {
  readonly verdict: GateVerdict;
  readonly result: ScanResult;
  readonly paidUsd: number;
  /** The settlement transaction's signature. */
  readonly transaction: string | null;
  /** What is left of the budget, in USD. */
  readonly remainingUsd: number;
}

/**
 * `design:paramtypes` as `tsc --emitDecoratorMetadata` would write it (GOAT's `@Tool` reads it to
 * find the wallet and the parameters), written out so the tools load under any compiler.
 */
const takes = (...types: unknown[]) => Reflect.metadata('design:paramtypes', types);

export class RiskScanTools {
  private readonly clients = new WeakMap<SolanaWalletClient, RiskScanClient>();

  constructor(private readonly options: RiskScanGoatOptions) {}

  @Tool({
    name: 'risk_scan_token',
    description:
      'Pay for a risk scan of an SPL or Token-2022 token before buying, selling or integrating it: ' +
      'authorities, extensions, holders, liquidity, insiders. Returns the decision and its reasons.',
  })
  @takes(SolanaWalletClient, MintParameters)
  scanToken(wallet: SolanaWalletClient, { mint }: MintParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.scanToken(mint));
  }

  @Tool({
    name: 'risk_scan_pumpfun',
    description:
      'Pay for a risk scan of a pump.fun token: bonding curve, creator history, dev dumps, insiders. ' +
      'Returns the decision and its reasons.',
  })
  @takes(SolanaWalletClient, MintParameters)
  scanPumpfun(wallet: SolanaWalletClient, { mint }: MintParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.scanPumpfun(mint));
  }

  @Tool({
    name: 'risk_scan_wallet',
    description:
      'Pay for a risk scan of a Solana wallet before sending to it or trusting it: its kind, ' +
      'history and burner patterns.',
  })
  @takes(SolanaWalletClient, WalletParameters)
  scanWallet(wallet: SolanaWalletClient, { address }: WalletParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.scanWallet(address));
  }

  @Tool({
    name: 'risk_verify_tx',
    description:
      'Pay to verify a sent Solana transaction: whether it landed or failed and why, every ' +
      "signer's balance changes, drainer shapes.",
  })
  @takes(SolanaWalletClient, SignatureParameters)
  verifyTx(wallet: SolanaWalletClient, { signature }: SignatureParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.verifyTx(signature));
  }

  @Tool({
    name: 'risk_scan_program',
    description:
      'Pay for a risk scan of a Solana program before interacting with it: upgrade authority, ' +
      'deployments, verification.',
  })
  @takes(SolanaWalletClient, ProgramParameters)
  scanProgram(wallet: SolanaWalletClient, { programId }: ProgramParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.scanProgram(programId));
  }

  @Tool({
    name: 'risk_simulate_tx',
    description:
      'Pay to simulate a transaction before signing or sending it: what it would do to each ' +
      'signer (balance changes, approvals, authorities handed over) and whether it fails.',
  })
  @takes(SolanaWalletClient, SimulateParameters)
  simulateTx(wallet: SolanaWalletClient, { transaction }: SimulateParameters): Promise<RiskScanAnswer> {
    return this.answer(wallet, (client) => client.simulateTx({ transaction }));
  }

  private async answer(
    wallet: SolanaWalletClient,
    call: (client: RiskScanClient) => Promise<Paid<ScanResult>>,
  ): Promise<RiskScanAnswer> {
    const client = this.clientOf(wallet);
    const paid = await call(client);
    return {
      verdict: gate(paid.result, this.options.policy),
      result: paid.result,
      paidUsd: paid.paidUsd,
      transaction: paid.transaction,
      remainingUsd: client.remainingUsd,
    };
  }

  private clientOf(wallet: SolanaWalletClient): RiskScanClient {
    let client = this.clients.get(wallet);
    if (client === undefined) {
      const { rpcUrl, signer, policy: _policy, ...rest } = this.options;
      client = new RiskScanClient({
        ...rest,
        rpcUrl: rpcUrl ?? wallet.getConnection().rpcEndpoint,
        signer: signer ?? goatWalletSigner(wallet),
      });
      this.clients.set(wallet, client);
    }
    return client;
  }
}
