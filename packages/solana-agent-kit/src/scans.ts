/**
 * The six paid scans as solana-agent-kit sees them: the action's name, similes and input schema,
 * the plugin method's name, and the client call it makes. The price in each description is the
 * client's catalog, the one the client also refuses to pay above.
 */
import { ENDPOINTS, type Paid, type RiskScanClient, type ScanResult } from '@solana-risk-scan/client';
import { z } from 'zod/v3';

type ScanEndpointId = 'token' | 'pumpfun' | 'wallet' | 'tx' | 'program' | 'simulate';

export interface ScanSpec {
  readonly endpoint: ScanEndpointId;
  readonly action: string;
  readonly method: string;
  readonly similes: readonly string[];
  readonly what: string;
  /** The one input the scan takes, by name, and what it must look like. */
  readonly field: string;
  readonly input: z.ZodString;
  readonly example: string;
  call(client: RiskScanClient, value: string): Promise<Paid<ScanResult>>;
}

const base58 = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${min},${max}}$`), 'not a base58 string of the right length');
const address = base58(32, 44);
const signature = base58(64, 88);
/** base64 of at most 1232 wire bytes (the packet size), as POST /simulate/tx takes it. */
const wireTransaction = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'not base64')
  .max(1644);

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SIMULATE_EXAMPLE =
  'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAIFfowIh2C/3h3dzzLBfyCbgkLuUqrxMfrNiNDqLG0LBvLT6oz1rKyozQUgdRIXXEPO9Upd2Z7eIKFrVSU3OPOX3PdB78uRI342SpqA+TVsD/f4o3WfVFRxtym9Ukb3B08dxvp6877brTo9ZfNqq8l0MbG75MLS9uDkfKYCA0UvXWEG3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQQEAQMCAAoMQEIPAAAAAAAG';

export const SCANS: readonly ScanSpec[] = [
  {
    endpoint: 'token',
    action: 'RISK_SCAN_TOKEN',
    method: 'riskScanToken',
    similes: ['check token risk', 'is this token safe', 'rug check token', 'scan token'],
    what: 'Risk scan of any SPL / Token-2022 token before buying or holding it: authorities, risky extensions, holder concentration, liquidity and LP, insiders, launch history.',
    field: 'mint',
    input: address.describe('Base58 mint address of the token'),
    example: USDC,
    call: (client, mint) => client.scanToken(mint),
  },
  {
    endpoint: 'pumpfun',
    action: 'RISK_SCAN_PUMPFUN',
    method: 'riskScanPumpfun',
    similes: ['check pump.fun token', 'is this pump.fun coin a rug', 'scan pumpfun token'],
    what: "Risk scan of a token launched on pump.fun: every token check plus the bonding curve, the creator's holding and its earlier launches (serial launcher, dev dump).",
    field: 'mint',
    input: address.describe('Base58 mint address of the pump.fun token'),
    example: '3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump',
    call: (client, mint) => client.scanPumpfun(mint),
  },
  {
    endpoint: 'wallet',
    action: 'RISK_SCAN_WALLET',
    method: 'riskScanWallet',
    similes: ['check wallet risk', 'is this wallet a burner', 'scan wallet'],
    what: 'Risk scan of a wallet before sending to or dealing with it: what kind of account it is, its age, activity and burner patterns.',
    field: 'address',
    input: address.describe('Base58 address of the wallet'),
    example: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    call: (client, wallet) => client.scanWallet(wallet),
  },
  {
    endpoint: 'tx',
    action: 'RISK_VERIFY_TX',
    method: 'riskVerifyTx',
    similes: ['verify transaction', 'did this transaction land', 'check transaction'],
    what: "Verify a sent transaction: whether it landed or failed and why, its fee, every signer's balance changes and drainer shapes.",
    field: 'signature',
    input: signature.describe('Base58 transaction signature'),
    example: '5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v',
    call: (client, txSignature) => client.verifyTx(txSignature),
  },
  {
    endpoint: 'program',
    action: 'RISK_SCAN_PROGRAM',
    method: 'riskScanProgram',
    similes: ['check program risk', 'who can upgrade this program', 'scan program'],
    what: 'Risk scan of a program before integrating or approving it: its upgrade authority (none, a key, a multisig or a DAO), deploys, upgrades and age.',
    field: 'programId',
    input: address.describe('Base58 program id'),
    example: 'MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD',
    call: (client, programId) => client.scanProgram(programId),
  },
  {
    endpoint: 'simulate',
    action: 'RISK_SIMULATE_TX',
    method: 'riskSimulateTx',
    similes: ['simulate transaction', 'what would this transaction do', 'check before signing'],
    what: 'Simulate a transaction a dapp asks the agent to sign, before signing it: balance changes of each signer, approvals, authorities handed over, programs invoked, failure.',
    field: 'transaction',
    input: wireTransaction.describe('Base64 of the wire transaction (legacy or v0, signed or not)'),
    // The service's documented example: an unsigned transfer of 1 USDC.
    example: SIMULATE_EXAMPLE,
    call: (client, transaction) => client.simulateTx({ transaction }),
  },
];

/** The catalog's price of a scan, in USDC. */
export function priceOf(spec: ScanSpec): number {
  const endpoint = ENDPOINTS.find((e) => e.id === spec.endpoint);
  return endpoint !== undefined && 'priceUsd' in endpoint ? endpoint.priceUsd : 0;
}

export function descriptionOf(spec: ScanSpec): string {
  return `${spec.what} Paid per call with x402 from the agent's own wallet: ${priceOf(spec).toFixed(2)} USDC. Returns a signed ScanResult (risk_score 0-1, flags, confidence, summary, recommendation, reasoning, evidence.decision: proceed, caution, avoid or do_not_interact).`;
}
