/**
 * The six paid scans as elizaOS actions. Each reads its subject from the message, pays through the
 * agent's session client, answers through the callback and returns the verified result.
 */

import { gate, type Paid, type RiskScanClient, type ScanResult } from '@solana-risk-scan/client';
import type { Action, ActionResult, AgentRuntime, HandlerCallback, Memory } from './eliza-types.js';
import { type RiskScanSession, sessionOf } from './session.js';
import { firstAddress, firstSignature, firstTransaction } from './subjects.js';
import { failureText, paidText, verdictText } from './wording.js';

interface ScanSpec {
  readonly name: string;
  readonly similes: string[];
  readonly description: string;
  /** What the subject is called in replies ('token', 'wallet', …). */
  readonly noun: string;
  readonly example: string;
  readonly subject: (text: string) => string | undefined;
  readonly pay: (client: RiskScanClient, subject: string) => Promise<Paid<ScanResult>>;
  /** Token scans are remembered for the verdict provider. */
  readonly remembers?: 'token' | 'pumpfun';
}

const textOf = (message: Memory) => message.content.text ?? '';

function verdictOf(session: RiskScanSession, spec: ScanSpec, subject: string, result: ScanResult) {
  return spec.remembers === undefined
    ? gate(result)
    : session.remember(subject, spec.remembers, result).verdict;
}

async function run(
  spec: ScanSpec,
  runtime: AgentRuntime,
  message: Memory,
  callback?: HandlerCallback,
): Promise<ActionResult> {
  const subject = spec.subject(textOf(message));
  const source = message.content.source;
  const reply = (text: string) =>
    callback?.({ text, actions: [spec.name], ...(source === undefined ? {} : { source }) });
  if (subject === undefined) {
    const text = `No ${spec.noun} to scan in the message.`;
    await reply(text);
    return { success: false, text, error: text };
  }
  try {
    const session = await sessionOf(runtime);
    const paid = await spec.pay(session.client, subject);
    const verdict = verdictOf(session, spec, subject, paid.result);
    const text = `${verdictText(`${spec.noun} ${subject}`, paid.result, verdict)} ${paidText(paid.paidUsd, paid.transaction)}`;
    await reply(text);
    const data = { actionName: spec.name, subject, result: paid.result, verdict, paidUsd: paid.paidUsd };
    return {
      success: true,
      text,
      values: { riskScanDecision: verdict.decision },
      data: { ...data, transaction: paid.transaction },
    };
  } catch (error) {
    const text = failureText(error);
    await reply(text);
    return { success: false, text, error: error instanceof Error ? error : text };
  }
}

function scanAction(spec: ScanSpec): Action {
  return {
    name: spec.name,
    similes: spec.similes,
    description: spec.description,
    examples: [
      [
        { name: '{{user1}}', content: { text: spec.example } },
        { name: '{{agent}}', content: { text: `Paying for the ${spec.noun} scan.`, actions: [spec.name] } },
      ],
    ],
    validate: async (runtime, message) =>
      spec.subject(textOf(message)) !== undefined &&
      (await sessionOf(runtime).then(
        () => true,
        () => false,
      )),
    handler: (runtime, message, _state, _options, callback) => run(spec, runtime, message, callback),
  };
}

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const SPECS: readonly ScanSpec[] = [
  {
    name: 'RISK_SCAN_TOKEN',
    similes: ['CHECK_TOKEN_RISK', 'TOKEN_SAFETY_CHECK', 'RUG_CHECK'],
    description:
      'Pay for a risk scan of an SPL / Token-2022 token before trading it: authorities, extensions, holders, liquidity, insiders.',
    noun: 'token',
    example: `Is ${USDC} safe to buy?`,
    subject: firstAddress,
    pay: (client, mint) => client.scanToken(mint),
    remembers: 'token',
  },
  {
    name: 'RISK_SCAN_PUMPFUN',
    similes: ['CHECK_PUMPFUN_RISK', 'PUMPFUN_SAFETY_CHECK'],
    description:
      'Pay for a risk scan of a pump.fun token before trading it: bonding curve, creator history, dev dumps, insiders.',
    noun: 'pump.fun token',
    example: 'Check the pump.fun coin 3xM2iMg4RZBuzdFpvwYab9cUaVpniuHgLUZRg33ipump before I ape in.',
    subject: firstAddress,
    pay: (client, mint) => client.scanPumpfun(mint),
    remembers: 'pumpfun',
  },
  {
    name: 'RISK_SCAN_WALLET',
    similes: ['CHECK_WALLET_RISK', 'WALLET_SAFETY_CHECK'],
    description:
      'Pay for a risk scan of a Solana wallet before sending to it or trusting it: its kind, history, burner patterns.',
    noun: 'wallet',
    example: 'Is the wallet 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM a burner?',
    subject: firstAddress,
    pay: (client, address) => client.scanWallet(address),
  },
  {
    name: 'RISK_VERIFY_TX',
    similes: ['VERIFY_TRANSACTION', 'CHECK_TRANSACTION'],
    description:
      "Pay to verify a sent transaction: whether it landed or failed and why, each signer's balance changes, drainer shapes.",
    noun: 'transaction',
    example:
      'Did 5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v drain me?',
    subject: firstSignature,
    pay: (client, signature) => client.verifyTx(signature),
  },
  {
    name: 'RISK_SCAN_PROGRAM',
    similes: ['CHECK_PROGRAM_RISK', 'PROGRAM_SAFETY_CHECK'],
    description:
      'Pay for a risk scan of a Solana program before interacting with it: upgrade authority, deployments, verification.',
    noun: 'program',
    example: 'Can the program MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD be upgraded under me?',
    subject: firstAddress,
    pay: (client, id) => client.scanProgram(id),
  },
  {
    name: 'RISK_SIMULATE_TX',
    similes: ['SIMULATE_TRANSACTION', 'PREVIEW_TRANSACTION'],
    description:
      'Pay to simulate a base64 transaction before signing it: what it does to each signer, approvals, authorities handed over, failure.',
    noun: 'transaction to simulate',
    example: 'What would this transaction do to me? AQAAAAAA…',
    subject: firstTransaction,
    pay: (client, transaction) => client.simulateTx({ transaction }),
  },
];

export const SCAN_ACTIONS: readonly Action[] = SPECS.map(scanAction);
