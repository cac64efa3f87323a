/**
 * Launches for launch forensics: two pump.fun-shaped coins whose first slots hold real buys.
 * The sandbox has no pump program body, so a buy is what a pump buy leaves in the history: the
 * buyer signs, sends SOL to the curve, and tokens move from the curve's token account to the
 * buyer's (a TransferChecked signed by a sandbox delegate of the curve's account, written in and
 * cleared again around the buys; the curve itself is written in pump's layout afterwards).
 *
 *  - bundled: in the creation slot the creator dev-buys and pays for five wallets' buys, sending
 *    each 1 SOL in the same transaction; they keep 3 % of the supply apiece. Ten strangers buy later.
 *  - fair: the creator dev-buys 1 %; one stranger buys 2 slots later, forty more over 20 minutes,
 *    every one paying for itself with SOL it already had.
 */
import { type Address, type Instruction, type KeyPairSigner, none, some } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTokenCodec,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import {
  findBondingCurveAddress,
  INITIAL_REAL_TOKEN_RESERVES,
} from '../../solana/decoders/pump-bonding-curve.js';
import { PUMP_MINT_AUTHORITY, PUMP_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import { submit } from '../wallets.js';
import { BONDING_CURVE_SIZE, encodeBondingCurve } from './builders/layouts.js';
import { createMetadata } from './builders/metaplex.js';
import { HOUR, MINUTE } from './builders/timeline.js';
import {
  AuthorityType,
  associatedTokenAccount,
  createMint,
  mintToOwnersInstructions,
  revokeMintAuthorityInstruction,
} from './builders/token.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { PumpfunExpect } from './manifest.js';
import { curveAfterSelling, PUMP_DECIMALS, PUMP_TOTAL_SUPPLY } from './pumpfun.js';

const TOKENS = 1_000_000n;
const PCT = PUMP_TOTAL_SUPPLY / 100n;
/** SOL a buyer sends the curve per buy (the scan reads tokens, not prices). */
const BUY_LAMPORTS = LAMPORTS_PER_SOL / 2n;

export interface Coin {
  readonly mint: Address;
  readonly creator: KeyPairSigner;
  readonly curve: Address;
  readonly curveAccount: Address;
  readonly delegate: KeyPairSigner;
  readonly creationSlot: bigint;
  sold: bigint;
}

const tokenCodec = getTokenCodec();

/** The token account with `delegate` approved for `amount` (or no delegate), as Approve / Revoke leave it. */
function withDelegate(data: Uint8Array, delegate: Address | null, amount: bigint): Uint8Array {
  const token = tokenCodec.decode(data);
  return new Uint8Array(
    tokenCodec.encode({
      ...token,
      delegate: delegate ? some(delegate) : none(),
      delegatedAmount: delegate ? amount : 0n,
    }),
  );
}

function setCurveDelegate(context: ScenarioContext, coin: Coin, on: boolean): void {
  const account = context.chain.getAccount(coin.curveAccount);
  if (!account) throw new Error('the curve has no token account');
  const key = on ? coin.delegate.address : null;
  context.chain.setAccount({
    address: coin.curveAccount,
    lamports: account.lamports(),
    data: withDelegate(account.data(), key, PUMP_TOTAL_SUPPLY),
    owner: TOKEN_PROGRAM,
  });
}

/**
 * Mint, immutable metadata and the whole supply on the curve's token account, all in the current
 * slot; by `creator` when given (a creator of several coins), else by a new creator of its own.
 */
export async function createCoin(
  context: ScenarioContext,
  label: string,
  name: string,
  symbol: string,
  by?: KeyPairSigner,
): Promise<Coin> {
  const { chain, keys } = context;
  const creator = by ?? (await fundedSigner(context, `${label}:creator`, 50n * LAMPORTS_PER_SOL));
  const mint = await keys.signer(`${label}:mint`);
  const delegate = await fundedSigner(context, `${label}:curve-delegate`, LAMPORTS_PER_SOL);
  const creationSlot = chain.slot;
  await createMint(chain, {
    payer: creator,
    mint,
    tokenProgram: TOKEN_PROGRAM,
    decimals: PUMP_DECIMALS,
    mintAuthority: creator,
  });
  await createMetadata(chain, {
    payer: creator,
    mint: mint.address,
    mintAuthority: creator,
    updateAuthority: PUMP_MINT_AUTHORITY,
    name,
    symbol,
    uri: `https://sandbox.invalid/pump/${symbol}.json`,
    isMutable: false,
  });
  const curve = await findBondingCurveAddress(mint.address);
  const curveAccount = await associatedTokenAccount(curve, mint.address, TOKEN_PROGRAM);
  const mintAll = await mintToOwnersInstructions(
    creator,
    mint.address,
    creator,
    TOKEN_PROGRAM,
    PUMP_DECIMALS,
    [{ owner: curve, amount: PUMP_TOTAL_SUPPLY }],
  );
  await submit(chain, creator, [
    ...mintAll,
    revokeMintAuthorityInstruction(mint.address, creator, TOKEN_PROGRAM, AuthorityType.MintTokens),
  ]);
  const coin = { mint: mint.address, creator, curve, curveAccount, delegate, creationSlot, sold: 0n };
  setCurveDelegate(context, coin, true);
  return coin;
}

/** One buy off the curve by `buyer`; `payer` pays the fee (and sends `funding` to the buyer first). */
export async function buy(
  context: ScenarioContext,
  coin: Coin,
  buyer: KeyPairSigner,
  amount: bigint,
  options: { payer?: KeyPairSigner; funding?: bigint } = {},
): Promise<void> {
  const payer = options.payer ?? buyer;
  const account = await associatedTokenAccount(buyer.address, coin.mint, TOKEN_PROGRAM);
  const instructions: Instruction[] = [];
  if (options.funding)
    instructions.push(
      getTransferSolInstruction({ source: payer, destination: buyer.address, amount: options.funding }),
    );
  instructions.push(
    getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: account,
      owner: buyer.address,
      mint: coin.mint,
    }),
    getTransferSolInstruction({ source: buyer, destination: coin.curve, amount: BUY_LAMPORTS }),
    getTransferCheckedInstruction({
      source: coin.curveAccount,
      mint: coin.mint,
      destination: account,
      authority: coin.delegate,
      amount,
      decimals: PUMP_DECIMALS,
    }),
  );
  await submit(context.chain, payer, instructions);
  coin.sold += amount;
}

/** Clears the delegate, writes the curve in pump's layout, and says what the coin is. */
export function finish(context: ScenarioContext, coin: Coin): PumpfunExpect {
  setCurveDelegate(context, coin, false);
  const curve = curveAfterSelling(coin.sold);
  context.chain.setAccount({
    address: coin.curve,
    lamports: context.chain.minimumBalanceForRentExemption(BONDING_CURVE_SIZE) + curve.realQuoteReserves,
    data: encodeBondingCurve({
      ...curve,
      tokenTotalSupply: PUMP_TOTAL_SUPPLY,
      complete: false,
      creator: coin.creator.address,
    }),
    owner: PUMP_PROGRAM,
  });
  return {
    bondingCurve: coin.curve,
    associatedBondingCurve: coin.curveAccount,
    creator: coin.creator.address,
    complete: false,
    curveDataLength: BONDING_CURVE_SIZE,
    virtualTokenReserves: curve.virtualTokenReserves.toString(),
    virtualQuoteReserves: curve.virtualQuoteReserves.toString(),
    realTokenReserves: curve.realTokenReserves.toString(),
    realQuoteReserves: curve.realQuoteReserves.toString(),
    tokenTotalSupply: PUMP_TOTAL_SUPPLY.toString(),
    curveTokenBalance: (PUMP_TOTAL_SUPPLY - coin.sold).toString(),
    supply: PUMP_TOTAL_SUPPLY.toString(),
    decimals: PUMP_DECIMALS,
    mintAuthority: null,
    freezeAuthority: null,
    progressBps: Number((coin.sold * 10_000n) / INITIAL_REAL_TOKEN_RESERVES),
    creatorTokens: '0',
  };
}

async function seedBundled(context: ScenarioContext): Promise<BuiltSubject> {
  const label = 'launch:bundled';
  const coin = await createCoin(context, label, 'Sandbox Bundle', 'BNDL');
  const creatorExpect = { creatorTokens: String(2n * PCT) };
  await buy(context, coin, coin.creator, 2n * PCT);
  const bundle: string[] = [];
  for (let i = 0; i < 5; i++) {
    const wallet = await context.keys.signer(`${label}:bundle:${i}`);
    await buy(context, coin, wallet, 3n * PCT, { payer: coin.creator, funding: LAMPORTS_PER_SOL });
    bundle.push(wallet.address);
  }
  for (let i = 0; i < 10; i++) {
    context.timeline.advance(MINUTE);
    const wallet = await fundedSigner(context, `${label}:public:${i}`, 5n * LAMPORTS_PER_SOL);
    await buy(context, coin, wallet, PCT / 2n);
  }
  return {
    name: 'pumpfun:launch-bundled',
    kind: 'pumpfun',
    address: coin.mint,
    description:
      'pump.fun coin bundled at launch: in the creation slot the creator pays for five wallets’ buys and sends each 1 SOL; they still hold 3 % apiece (15 %)',
    expect: {
      ...finish(context, coin),
      ...creatorExpect,
      launch: {
        creationSlot: coin.creationSlot.toString(),
        creationSlotBuyers: bundle,
        creatorFunded: bundle,
      },
    },
  };
}

async function seedFair(context: ScenarioContext): Promise<BuiltSubject> {
  const label = 'launch:fair';
  const coin = await createCoin(context, label, 'Sandbox Fair', 'FAIR');
  await buy(context, coin, coin.creator, PCT);
  context.chain.warp(2);
  const early = await fundedSigner(context, `${label}:early`, 5n * LAMPORTS_PER_SOL);
  await buy(context, coin, early, PCT / 2n);
  for (let i = 0; i < 40; i++) {
    context.timeline.advance(30);
    const wallet = await fundedSigner(context, `${label}:public:${i}`, 5n * LAMPORTS_PER_SOL);
    await buy(context, coin, wallet, PCT / 2n + BigInt(i) * 1_000n * TOKENS);
  }
  return {
    name: 'pumpfun:launch-fair',
    kind: 'pumpfun',
    address: coin.mint,
    description:
      'pump.fun coin launched fairly: a 1 % dev buy, one buyer two slots later, forty more over 20 minutes, each paying with its own SOL',
    expect: {
      ...finish(context, coin),
      creatorTokens: String(PCT),
      launch: { creationSlot: coin.creationSlot.toString(), creationSlotBuyers: [], creatorFunded: [] },
    },
  };
}

/** From 2 h 54 min to about 2 h 15 min before the end. */
export async function seedLaunches(context: ScenarioContext): Promise<BuiltSubject[]> {
  const bundled = await seedBundled(context);
  context.timeline.moveTo(2.6 * HOUR);
  return [bundled, await seedFair(context)];
}
