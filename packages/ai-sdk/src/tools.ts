/**
 * The six paid scans as Vercel AI SDK tools. Each tool's `execute` pays one call through the
 * client (pinned payee, per-call cap, session budget, signature checked) and returns the paid
 * result with its receipt; a failure is thrown as the client's RiskScanError, which the SDK hands
 * the model as the tool's error. Tool names are the service's MCP tool names.
 */
import {
  ENDPOINTS,
  type Paid,
  RiskScanClient,
  type RiskScanClientOptions,
  type ScanResult,
} from '@solana-risk-scan/client';
import { type Tool, tool } from 'ai';
import { z } from 'zod';

const base58 = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${min},${max}}$`), `${what} must be base58`)
    .describe(what);
const mint = (what: string) => z.object({ mint: base58(32, 44, what) });

type ScanTool<I> = Tool<I, Paid<ScanResult>>;

// A type, not an interface, so that it is assignable to the SDK's ToolSet.
export type RiskScanTools = {
  scan_token: ScanTool<{ mint: string }>;
  scan_pumpfun: ScanTool<{ mint: string }>;
  scan_wallet: ScanTool<{ address: string }>;
  verify_tx: ScanTool<{ signature: string }>;
  scan_program: ScanTool<{ id: string }>;
  simulate_tx: ScanTool<{ transaction: string }>;
};

/** The client's options (the payer's signer, API URL, pinned payee, budget, cap), or a client to share. */
export type RiskScanToolsOptions = RiskScanClientOptions | { readonly client: RiskScanClient };

const RETURNS =
  'Returns the signed ScanResult (risk_score 0-1, flags, confidence, summary, recommendation, reasoning, evidence.decision: proceed, caution, avoid or do_not_interact) with what was paid.';

function describe(id: (typeof ENDPOINTS)[number]['id'], what: string): string {
  const endpoint = ENDPOINTS.find((e) => e.id === id)!;
  const price = 'priceUsd' in endpoint ? endpoint.priceUsd : 0;
  return `${what} Costs ${price.toFixed(2)} USDC per call (x402 on Solana). ${RETURNS}`;
}

export function riskScanTools(options: RiskScanToolsOptions): RiskScanTools {
  const client = 'client' in options ? options.client : new RiskScanClient(options);
  return {
    scan_token: tool({
      description: describe('token', 'Risk scan of any SPL / Token-2022 token before buying or holding it.'),
      inputSchema: mint('Base58 mint address of the token'),
      execute: (input) => client.scanToken(input.mint),
    }),
    scan_pumpfun: tool({
      description: describe(
        'pumpfun',
        "Risk scan of a pump.fun token: every token check plus the bonding curve and the creator's earlier launches.",
      ),
      inputSchema: mint('Base58 mint address of the pump.fun token'),
      execute: (input) => client.scanPumpfun(input.mint),
    }),
    scan_wallet: tool({
      description: describe(
        'wallet',
        'Risk scan of a wallet: kind of account, age, activity, burner patterns.',
      ),
      inputSchema: z.object({ address: base58(32, 44, 'Base58 address of the wallet') }),
      execute: (input) => client.scanWallet(input.address),
    }),
    verify_tx: tool({
      description: describe(
        'tx',
        "Verify a sent transaction: landed or failed and why, its fee, every signer's balance changes, drainer shapes.",
      ),
      inputSchema: z.object({ signature: base58(64, 88, 'Base58 transaction signature') }),
      execute: (input) => client.verifyTx(input.signature),
    }),
    scan_program: tool({
      description: describe(
        'program',
        'Risk scan of a program: its upgrade authority, deploys, upgrades and age.',
      ),
      inputSchema: z.object({ id: base58(32, 44, 'Base58 program id') }),
      execute: (input) => client.scanProgram(input.id),
    }),
    simulate_tx: tool({
      description: describe(
        'simulate',
        'Simulate a transaction before signing it: balance changes, approvals, authorities handed over, programs invoked, failure.',
      ),
      inputSchema: z.object({
        transaction: z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'transaction must be base64')
          .max(1644)
          .describe('Base64 of the wire transaction (legacy or v0, signed or not; at most 1232 bytes)'),
      }),
      execute: (input) => client.simulateTx({ transaction: input.transaction }),
    }),
  };
}
