/**
 * The transactions of each sandbox action, built from the subject's manifest entry and sent by its
 * actor through the sandbox RPC like any wallet would: SPL Token and BPF Upgradeable Loader
 * instructions, never a direct write of chain state (withdraw-lp's payout is the sandbox's stand-in
 * for the absent CPMM program, not this file's).
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
import { getAddMemoInstruction } from '@solana-program/memo';
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
import { WITHDRAW_MEMO } from '../stand-ins/cpmm-withdraw.js';
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

interface LpMarket {
  lpMint: string;
  quoteMint: string;
  lpHolders: { tokenAccount: string; amount: string }[];
}

/** SPL Burn of every LP token the holder has. */
function burnAll(market: LpMarket, actor: KeyPairSigner): Instruction {
  const holding = market.lpHolders[0]!;
  return getBurnInstruction({
    account: toAddress(holding.tokenAccount),
    mint: toAddress(market.lpMint),
    authority: actor,
    amount: BigInt(holding.amount),
  });
}

/** The LP holder burns every LP token it holds. */
const burnLp: Build = async (subject, actor) => [[burnAll(field<LpMarket>(subject, 'market'), actor)]];

/**
 * The LP holder withdraws its liquidity: burns every LP token in a transaction marked as a CPMM
 * withdrawal that names its token accounts of the pool's two mints (created if need be). The
 * sandbox has no CPMM program body: its stand-in (src/sandbox/stand-ins/cpmm-withdraw.ts) pays the
 * reserves out of the vaults to those accounts, as the program's withdraw would.
 */
const withdrawLp: Build = async (subject, actor) => {
  const market = field<LpMarket>(subject, 'market');
  const receivers = await Promise.all(
    [subjectAddress(subject), toAddress(market.quoteMint)].map(async (mint) =>
      getCreateAssociatedTokenIdempotentInstruction({
        payer: actor,
        ata: await associatedTokenAccount(actor.address, mint, TOKEN_PROGRAM),
        owner: actor.address,
        mint,
      }),
    ),
  );
  return [
    [
      ...receivers,
      burnAll(market, actor),
      getAddMemoInstruction({ memo: WITHDRAW_MEMO }, { programAddress: MEMO_PROGRAM }),
    ],
  ];
};

const BUILDS: Readonly<Record<ScenarioAction['name'], Build>> = {
  mint,
  freeze,
  upgrade,
  'sell-dev-buy': sellDevBuy,
  'burn-lp': burnLp,
  'withdraw-lp': withdrawLp,
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
