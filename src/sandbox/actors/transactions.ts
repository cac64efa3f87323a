/**
 * The transactions of each sandbox action, built from the subject's manifest entry and sent by its
 * actor through the sandbox RPC like any wallet would: SPL Token and BPF Upgradeable Loader
 * instructions, never a direct write of chain state.
 */
import {
  type Address,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
  address as toAddress,
} from '@solana/kit';
import {
  getBurnInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { MEMO_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import { bufferSize, bufferTransactions, upgradeInstruction } from '../scenarios/builders/loader.js';
import { associatedTokenAccount } from '../scenarios/builders/token.js';
import type { ScenarioAction, ScenarioSubject } from '../scenarios/manifest.js';
import { buildOf } from '../scenarios/programs.js';
import { signedV0Transaction } from '../wallets.js';

type Build = (
  subject: ScenarioSubject,
  actor: KeyPairSigner,
  rpc: Rpc<SolanaRpcApi>,
) => Promise<Instruction[][]>;

const subjectAddress = (subject: ScenarioSubject): Address =>
  toAddress('address' in subject ? subject.address : subject.signature);
const field = <T>(subject: ScenarioSubject, key: string): T =>
  (subject.expect as unknown as Record<string, T>)[key]!;

/** The mint authority mints as much again as the supply, to itself. */
const mint: Build = async (subject, actor) => {
  const mintAddress = subjectAddress(subject);
  const ata = await associatedTokenAccount(actor.address, mintAddress, TOKEN_PROGRAM);
  return [
    [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: actor,
        ata,
        owner: actor.address,
        mint: mintAddress,
      }),
      getMintToCheckedInstruction({
        mint: mintAddress,
        token: ata,
        mintAuthority: actor,
        amount: BigInt(field<string>(subject, 'supply')),
        decimals: field<number>(subject, 'decimals'),
      }),
    ],
  ];
};

/** The freeze authority freezes the largest holder's account. */
const freeze: Build = async (subject, actor) => {
  const holders = field<{ tokenAccount: string }[]>(subject, 'holders');
  return [
    [
      getFreezeAccountInstruction({
        account: toAddress(holders[0]!.tokenAccount),
        mint: subjectAddress(subject),
        owner: actor,
      }),
    ],
  ];
};

/** The upgrade authority writes a new build of the program into a buffer and upgrades to it. */
const upgrade: Build = async (subject, actor, rpc) => {
  const memo = await rpc.getAccountInfo(MEMO_PROGRAM, { encoding: 'base64' }).send();
  if (!memo.value) throw new Error('the sandbox RPC has no Memo program to take an ELF from');
  const elf = buildOf(new Uint8Array(Buffer.from(memo.value.data[0], 'base64')), Date.now() >>> 0);
  const buffer = await generateKeyPairSigner();
  const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(bufferSize(elf))).send();
  const programData = toAddress(field<string>(subject, 'programData'));
  return [
    ...bufferTransactions(actor, buffer, actor, elf, rent),
    [upgradeInstruction(programData, subjectAddress(subject), buffer.address, actor.address, actor)],
  ];
};

/** The creator sends its whole dev buy back to the curve: what a pump.fun sell leaves in token balances. */
const sellDevBuy: Build = async (subject, actor) => {
  const mintAddress = subjectAddress(subject);
  return [
    [
      getTransferCheckedInstruction({
        source: await associatedTokenAccount(actor.address, mintAddress, TOKEN_PROGRAM),
        mint: mintAddress,
        destination: toAddress(field<string>(subject, 'associatedBondingCurve')),
        authority: actor,
        amount: BigInt(field<string>(subject, 'creatorTokens')),
        decimals: field<number>(subject, 'decimals'),
      }),
    ],
  ];
};

/** The LP holder burns every LP token it holds. */
const burnLp: Build = async (subject, actor) => {
  const market = field<{ lpMint: string; lpHolders: { tokenAccount: string; amount: string }[] }>(
    subject,
    'market',
  );
  const holding = market.lpHolders[0]!;
  return [
    [
      getBurnInstruction({
        account: toAddress(holding.tokenAccount),
        mint: toAddress(market.lpMint),
        authority: actor,
        amount: BigInt(holding.amount),
      }),
    ],
  ];
};

const BUILDS: Readonly<Record<ScenarioAction['name'], Build>> = {
  mint,
  freeze,
  upgrade,
  'sell-dev-buy': sellDevBuy,
  'burn-lp': burnLp,
};

/**
 * Sends the action's transactions, in order, each through `sendTransaction` with preflight (a
 * failing one throws); returns their signatures.
 */
export async function performAction(
  rpc: Rpc<SolanaRpcApi>,
  subject: ScenarioSubject,
  action: ScenarioAction,
  actor: KeyPairSigner,
): Promise<string[]> {
  const signatures: string[] = [];
  for (const instructions of await BUILDS[action.name](subject, actor, rpc)) {
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const signed = await signedV0Transaction(actor, instructions, lifetime);
    const wire = getBase64EncodedWireTransaction(signed);
    signatures.push(await rpc.sendTransaction(wire, { encoding: 'base64' }).send());
  }
  return signatures;
}
