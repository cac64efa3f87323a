/**
 * Insiders funded before they touch the token, from real System transfers and token transfers.
 * The funding lands forty minutes before the launches (the free stretch of the timeline after the
 * old wallet's last transfer), each funded wallet's first transaction; the coins are pump.fun-shaped
 * launches (launches.ts says how a buy is emulated) and one plain SPL token.
 *  - creator-funded: the creator sends four fresh wallets 1 SOL each; two slots after the creation
 *    they buy 5 % apiece (20 %, snipers of the launch window too).
 *  - via an intermediate: the creator funds one wallet, which funds four fresh ones; they buy 3 %
 *    apiece a minute after the creation (12 %).
 *  - exchange-funded: a Binance hot wallet (token/insiders/well-known-funders.ts) pays four fresh
 *    wallets 1 SOL each, as it pays out withdrawals; they buy 3 % apiece a minute after the creation.
 *    The sandbox holds no exchange key: that one transfer lands unverified (chain.sendUnverified).
 *  - SPL token: its creator funds four fresh wallets; at the mint it gives them 6 % apiece.
 */
import {
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  getTransactionEncoder,
  signBytes,
  type TransactionPartialSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { WELL_KNOWN_FUNDERS } from '../../scans/token/insiders/well-known-funders.js';
import { signedV0Transaction, submit } from '../wallets.js';
import { privateKeyBytes } from './builders/keys.js';
import { MINUTE } from './builders/timeline.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { buy, createCoin, finish } from './launches.js';
import type { PumpfunExpect } from './manifest.js';
import { PUMP_TOTAL_SUPPLY } from './pumpfun.js';
import { seedSplToken } from './tokens.js';

const PCT = PUMP_TOTAL_SUPPLY / 100n;
const INSIDERS = 4;
const LABELS = {
  creator: 'insiders:creator-funded',
  intermediate: 'insiders:intermediate',
  exchange: 'insiders:exchange-funded',
  spl: 'token:insiders-creator-funded',
} as const;
const BINANCE = WELL_KNOWN_FUNDERS[0]!.address as Address;

const walletsOf = (context: ScenarioContext, label: string) =>
  Promise.all(Array.from({ length: INSIDERS }, (_, i) => context.keys.signer(`${label}:insider:${i}`)));

/** `from` sends each wallet `amount` (1 SOL), in one transaction (each wallet's first). */
async function fund(
  context: ScenarioContext,
  from: Parameters<typeof submit>[1],
  to: readonly Address[],
  amount = LAMPORTS_PER_SOL,
) {
  await submit(
    context.chain,
    from,
    to.map((destination) => getTransferSolInstruction({ source: from, destination, amount })),
  );
}

/** A signer for an address whose key the sandbox does not hold: its "signature" is another key's. */
async function standIn(context: ScenarioContext, address: Address): Promise<TransactionPartialSigner> {
  const other = await createKeyPairSignerFromPrivateKeyBytes(
    privateKeyBytes(context.keys.seed, 'insiders:stand-in'),
  );
  return {
    address,
    signTransactions: (transactions) =>
      Promise.all(
        transactions.map(async (t) => ({
          [address]: await signBytes(other.keyPair.privateKey, t.messageBytes),
        })),
      ),
  };
}

async function fundFromExchange(context: ScenarioContext, to: readonly Address[]) {
  const { chain } = context;
  chain.setAccount({ address: BINANCE, lamports: 1_000n * LAMPORTS_PER_SOL });
  const payer = await standIn(context, BINANCE);
  const transfers = to.map((destination) =>
    getTransferSolInstruction({ source: payer, destination, amount: LAMPORTS_PER_SOL }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: a partial signer stands in for the fee payer's key pair
  const transaction = await signedV0Transaction(payer as any, transfers, chain.latestBlockhash());
  const landed = chain.sendUnverified(new Uint8Array(getTransactionEncoder().encode(transaction)));
  if (!landed.landed) throw new Error('the exchange payout did not land');
}

/** Forty minutes before the launches: every funding transfer. */
export async function fundInsiders(context: ScenarioContext): Promise<void> {
  const addresses = async (label: string) => (await walletsOf(context, label)).map((w) => w.address);
  const creator = await fundedSigner(context, `${LABELS.creator}:creator`, 50n * LAMPORTS_PER_SOL);
  await fund(context, creator, await addresses(LABELS.creator));
  const viaCreator = await fundedSigner(context, `${LABELS.intermediate}:creator`, 50n * LAMPORTS_PER_SOL);
  const intermediate = await context.keys.signer(`${LABELS.intermediate}:hop`);
  await fund(context, viaCreator, [intermediate.address], 10n * LAMPORTS_PER_SOL);
  context.timeline.advance(MINUTE);
  await fund(context, intermediate, await addresses(LABELS.intermediate));
  await fundFromExchange(context, await addresses(LABELS.exchange));
  const splCreator = await fundedSigner(context, `${LABELS.spl}:authority`);
  const holders = await Promise.all(
    Array.from({ length: INSIDERS }, (_, i) => context.keys.signer(`${LABELS.spl}:holder:${i}`)),
  );
  await fund(
    context,
    splCreator,
    holders.map((h) => h.address),
  );
}

/** A coin whose `label` insiders buy `each` apiece, `slots` after the creation (or a minute). */
async function launchWithInsiders(
  context: ScenarioContext,
  label: string,
  symbol: string,
  buyAfter: { slots: bigint } | { seconds: number },
  each: bigint,
) {
  const coin = await createCoin(context, label, `Insiders ${symbol}`, symbol);
  await buy(context, coin, coin.creator, PCT);
  if ('slots' in buyAfter) context.chain.warp(buyAfter.slots);
  else context.timeline.advance(buyAfter.seconds);
  const insiders = await walletsOf(context, label);
  for (const wallet of insiders) await buy(context, coin, wallet, each);
  for (let i = 0; i < 4; i++) {
    context.timeline.advance(20);
    const stranger = await fundedSigner(context, `${label}:public:${i}`, 5n * LAMPORTS_PER_SOL);
    await buy(context, coin, stranger, PCT / 2n);
  }
  return { coin, expect: finish(context, coin) };
}

/** The three coins: who funded the insiders, when they bought, how much apiece. */
const COINS = [
  {
    name: 'pumpfun:insiders-creator-funded',
    label: LABELS.creator,
    symbol: 'INSD',
    buyAfter: { slots: 2n },
    each: 5n * PCT,
    description:
      'pump.fun coin whose creator sent four fresh wallets 1 SOL each forty minutes before the launch; two slots after the creation they bought 5 % apiece (20 %)',
  },
  {
    name: 'pumpfun:insiders-via-intermediate',
    label: LABELS.intermediate,
    symbol: 'INSH',
    buyAfter: { seconds: MINUTE },
    each: 3n * PCT,
    description:
      'pump.fun coin whose creator funded one wallet that funded four fresh ones forty minutes before the launch; a minute after the creation they bought 3 % apiece (12 %)',
  },
  {
    name: 'pumpfun:insiders-exchange-funded',
    label: LABELS.exchange,
    symbol: 'INSX',
    buyAfter: { seconds: MINUTE },
    each: 3n * PCT,
    description:
      'pump.fun coin launched fairly: four fresh wallets paid out 1 SOL each by a Binance hot wallet forty minutes before bought 3 % apiece a minute after the creation; exchange money ties nobody',
  },
] as const;

async function seedCoins(context: ScenarioContext): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (const c of COINS) {
    const { coin, expect } = await launchWithInsiders(context, c.label, c.symbol, c.buyAfter, c.each);
    built.push({
      name: c.name,
      kind: 'pumpfun',
      address: coin.mint,
      description: c.description,
      expect: { ...expect, creatorTokens: String(PCT) } satisfies PumpfunExpect,
    });
    context.timeline.advance(MINUTE);
  }
  return built;
}

/** From 0.98 hours (the funding, fundInsiders) to about 0.25 hours before the end (the launches). */
export async function seedInsiderLaunches(context: ScenarioContext): Promise<BuiltSubject[]> {
  const coins = await seedCoins(context);
  const spl = await seedSplToken(context, {
    name: LABELS.spl,
    label: LABELS.spl,
    description:
      'SPL token whose creator sent four fresh wallets 1 SOL each forty minutes before creating it, then minted them 6 % apiece (24 %) beside twenty other holders',
    allocations: [60n, 60n, 60n, 60n, ...Array.from({ length: 20 }, (_, i) => 38n - BigInt(i % 3))].map(
      (x) => x * 1_000_000n,
    ),
    revoke: true,
    metadata: { name: 'Insider Token', symbol: 'INSS', isMutable: false },
  });
  return [...coins, spl];
}
