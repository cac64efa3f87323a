/**
 * Creators whose record hides from their token accounts. Each coin is made as the other pump.fun
 * subjects are (launchPumpCoin: the mint, its metadata and every holding by real SPL transactions
 * signed by the creator, whose InitializeMint2 is what pump's create leaves in the token program;
 * the curve written in pump's layout at its PDA, since the sandbox has no pump program body). A
 * creator's sale of its dev buy is a real TransferChecked from its account back to the curve's (what
 * a pump sell leaves in token balances), after which the curve is rewritten with those tokens back.
 *
 *  - serial, accounts closed: twelve coins half a minute apart, each dev buy sold back 20 s after the
 *    creation and the creator's token account closed (its rent reclaimed), all dead; then a
 *    thirteenth whose dev buy it keeps. Its token accounts show only the newest coin.
 *  - dev dump: a first coin, 5 % dev buy, four buyers; five minutes later the creator sells it all.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { getCloseAccountInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { INITIAL_REAL_TOKEN_RESERVES } from '../../solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import { submit } from '../wallets.js';
import { BONDING_CURVE_SIZE, encodeBondingCurve } from './builders/layouts.js';
import { MINUTE } from './builders/timeline.js';
import { associatedTokenAccount } from './builders/token.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { PumpfunExpect } from './manifest.js';
import {
  curveAfterSelling,
  type Launch,
  launchPumpCoin,
  PUMP_DECIMALS,
  PUMP_TOTAL_SUPPLY,
} from './pumpfun.js';

const TOKENS = 1_000_000n;
const PCT = PUMP_TOTAL_SUPPLY / 100n;

/** The creator sells `amount` of its dev buy back to the curve (and closes its account); the curve takes them back. */
async function sellBack(
  context: ScenarioContext,
  launch: Launch,
  creator: KeyPairSigner,
  sold: { devBuy: bigint; totalSold: bigint },
  close: boolean,
): Promise<PumpfunExpect> {
  const { chain } = context;
  const own = await associatedTokenAccount(creator.address, launch.mint, TOKEN_PROGRAM);
  const curveAccount = launch.expect.associatedBondingCurve as Address;
  await submit(chain, creator, [
    getTransferCheckedInstruction({
      source: own,
      mint: launch.mint,
      destination: curveAccount,
      authority: creator,
      amount: sold.devBuy,
      decimals: PUMP_DECIMALS,
    }),
    ...(close
      ? [getCloseAccountInstruction({ account: own, destination: creator.address, owner: creator })]
      : []),
  ]);
  const left = sold.totalSold - sold.devBuy;
  const curve = curveAfterSelling(left);
  chain.setAccount({
    address: launch.expect.bondingCurve,
    lamports: chain.minimumBalanceForRentExemption(BONDING_CURVE_SIZE) + curve.realQuoteReserves,
    data: encodeBondingCurve({
      ...curve,
      tokenTotalSupply: PUMP_TOTAL_SUPPLY,
      complete: false,
      creator: creator.address,
    }),
    owner: PUMP_PROGRAM,
  });
  return {
    ...launch.expect,
    virtualTokenReserves: curve.virtualTokenReserves.toString(),
    virtualQuoteReserves: curve.virtualQuoteReserves.toString(),
    realTokenReserves: curve.realTokenReserves.toString(),
    realQuoteReserves: curve.realQuoteReserves.toString(),
    curveTokenBalance: (PUMP_TOTAL_SUPPLY - left).toString(),
    progressBps: Number((left * 10_000n) / INITIAL_REAL_TOKEN_RESERVES),
    creatorTokens: '0',
  };
}

const SERIAL_COINS = 12;
/** Dev buy and tokens sold of each serial coin: 2M tokens (≈ 0.06 SOL), 1M more by one buyer. */
const SERIAL_DEV = 2_000_000n * TOKENS;
const SERIAL_SOLD = 3_000_000n * TOKENS;

async function seedSerialClosed(context: ScenarioContext): Promise<BuiltSubject> {
  const { timeline } = context;
  const creator = await fundedSigner(context, 'history:serial:creator', 50n * LAMPORTS_PER_SOL);
  const mints: string[] = [];
  const curves: string[] = [];
  for (let i = 0; i < SERIAL_COINS; i++) {
    const launch = await launchPumpCoin(context, {
      label: `history:serial:${i}`,
      creator,
      name: `Closed ${i}`,
      symbol: `CLS${i}`,
      sold: SERIAL_SOLD,
      graduated: false,
      devBuy: SERIAL_DEV,
      buyers: 1,
    });
    timeline.advance(20);
    await sellBack(context, launch, creator, { devBuy: SERIAL_DEV, totalSold: SERIAL_SOLD }, true);
    mints.push(launch.mint);
    curves.push(launch.expect.bondingCurve);
    timeline.advance(10);
  }
  const latest = await launchPumpCoin(context, {
    label: 'history:serial:latest',
    creator,
    name: 'Closed Latest',
    symbol: 'CLSL',
    sold: SERIAL_SOLD,
    graduated: false,
    devBuy: SERIAL_DEV,
    buyers: 1,
  });
  return {
    name: 'pumpfun:serial-closed',
    kind: 'pumpfun',
    address: latest.mint,
    description:
      'The newest of a creator’s thirteen coins: the twelve before it died within the minute, each dev buy sold back and the creator’s token account of it closed, so only this coin shows in its token accounts',
    expect: {
      ...latest.expect,
      creatorLaunches: {
        curves: [...curves, latest.expect.bondingCurve],
        mints: [...mints, latest.mint],
        complete: 0,
        incomplete: SERIAL_COINS + 1,
      },
    } satisfies PumpfunExpect,
  };
}

async function seedDevDump(context: ScenarioContext): Promise<BuiltSubject> {
  const creator = await fundedSigner(context, 'history:dump:creator', 50n * LAMPORTS_PER_SOL);
  const devBuy = 5n * PCT;
  const totalSold = 15n * PCT;
  const launch = await launchPumpCoin(context, {
    label: 'history:dump',
    creator,
    name: 'Dev Dump',
    symbol: 'DUMP',
    sold: totalSold,
    graduated: false,
    devBuy,
    buyers: 4,
  });
  context.timeline.advance(5 * MINUTE);
  const expect = await sellBack(context, launch, creator, { devBuy, totalSold }, false);
  return {
    name: 'pumpfun:dev-dump',
    kind: 'pumpfun',
    address: launch.mint,
    description:
      'A creator’s first coin: a 5 % dev buy, four buyers take 10 % more, and five minutes after the creation the creator sells its whole dev buy into them',
    expect: {
      ...expect,
    } satisfies PumpfunExpect,
  };
}

/** From 2.24 hours to about 2.1 hours before the end (after the launches, before the old wallet's recent use). */
export async function seedCreatorHistory(context: ScenarioContext): Promise<BuiltSubject[]> {
  return [await seedSerialClosed(context), await seedDevDump(context)];
}
