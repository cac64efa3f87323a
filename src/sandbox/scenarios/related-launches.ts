/**
 * Related launches: what an agent screening new pump.fun launches meets, twenty-five coins tied to
 * each other, for batches and for facts one scan can hand the next. Coins are made as the launch
 * subjects are (launches.ts: real SPL transactions, a buy emulated as what it leaves in the history).
 *
 *  - a sniper ring: two wallets fund three fresh wallets each (12 SOL apiece, each one's first
 *    transaction); those six buy 2 % apiece in the creation slot of every coin below that is sniped,
 *    and hold it;
 *  - a serial creator: ten coins five minutes apart, each with a 1 % dev buy it keeps; the first
 *    seven die on their curve (a stranger buys 0.2 %), the last three are sniped by the ring;
 *  - fifteen coins by fifteen other creators, four minutes apart, each a first coin with a 1 % dev
 *    buy, sniped by the ring, then two strangers buy 0.5 % apiece.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { submit } from '../wallets.js';
import { MINUTE } from './builders/timeline.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { buy, type Coin, createCoin, finish } from './launches.js';
import type { PumpfunExpect } from './manifest.js';
import { PUMP_TOTAL_SUPPLY } from './pumpfun.js';

const PCT = PUMP_TOTAL_SUPPLY / 100n;
const RING_FUNDERS = 2;
const SNIPERS_PER_FUNDER = 3;
export const SERIAL_COINS = 10;
export const SERIAL_DEAD = 7;
export const RING_COINS = 15;

/** The subjects' names: `pumpfun:related-serial-<i>` (oldest 0) and `pumpfun:related-ring-<i>`. */
export const serialName = (i: number) => `pumpfun:related-serial-${i}`;
export const ringName = (i: number) => `pumpfun:related-ring-${i}`;

interface Ring {
  readonly funders: readonly Address[];
  readonly snipers: readonly KeyPairSigner[];
}

/** Each funder sends its three snipers 12 SOL in one transaction (their first). */
async function fundRing(context: ScenarioContext): Promise<Ring> {
  const funders: Address[] = [];
  const snipers: KeyPairSigner[] = [];
  for (let f = 0; f < RING_FUNDERS; f++) {
    const funder = await fundedSigner(context, `related:ring:funder:${f}`, 200n * LAMPORTS_PER_SOL);
    const own = await Promise.all(
      Array.from({ length: SNIPERS_PER_FUNDER }, (_, i) =>
        context.keys.signer(`related:ring:sniper:${f}:${i}`),
      ),
    );
    await submit(
      context.chain,
      funder,
      own.map((s) =>
        getTransferSolInstruction({ source: funder, destination: s.address, amount: 12n * LAMPORTS_PER_SOL }),
      ),
    );
    funders.push(funder.address);
    snipers.push(...own);
  }
  return { funders, snipers };
}

/** `count` strangers buy `each` apiece, thirty seconds apart. */
async function strangersBuy(
  context: ScenarioContext,
  coin: Coin,
  label: string,
  count: number,
  each: bigint,
) {
  for (let i = 0; i < count; i++) {
    context.timeline.advance(30);
    const stranger = await fundedSigner(context, `${label}:public:${i}`, 5n * LAMPORTS_PER_SOL);
    await buy(context, coin, stranger, each);
  }
}

interface Launched {
  readonly coin: Coin;
  readonly expect: PumpfunExpect;
  readonly snipers: readonly Address[];
}

/** One coin: the creator's 1 % dev buy, the ring's buys in the same slot when sniped, then strangers. */
async function launch(
  context: ScenarioContext,
  spec: { label: string; symbol: string; creator?: KeyPairSigner; ring: Ring | null },
): Promise<Launched> {
  const coin = await createCoin(context, spec.label, `Related ${spec.symbol}`, spec.symbol, spec.creator);
  await buy(context, coin, coin.creator, PCT);
  for (const sniper of spec.ring?.snipers ?? []) await buy(context, coin, sniper, 2n * PCT);
  if (spec.ring) await strangersBuy(context, coin, spec.label, 2, PCT / 2n);
  else await strangersBuy(context, coin, spec.label, 1, PCT / 5n);
  const snipers = (spec.ring?.snipers ?? []).map((s) => s.address);
  return { coin, expect: { ...finish(context, coin), creatorTokens: String(PCT) }, snipers };
}

function subjectOf(
  name: string,
  launched: Launched,
  ring: Ring,
  creatorMints: string[],
  description: string,
) {
  const sniped = launched.snipers.length > 0;
  return {
    name,
    kind: 'pumpfun',
    address: launched.coin.mint,
    description,
    expect: {
      ...launched.expect,
      related: {
        creatorMints,
        snipers: [...launched.snipers],
        sniperFunders: sniped ? [...ring.funders] : [],
      },
    },
  } satisfies BuiltSubject;
}

async function seedSerial(context: ScenarioContext, ring: Ring): Promise<BuiltSubject[]> {
  const creator = await fundedSigner(context, 'related:serial:creator', 50n * LAMPORTS_PER_SOL);
  const launched: Launched[] = [];
  for (let i = 0; i < SERIAL_COINS; i++) {
    const sniped = i >= SERIAL_DEAD;
    launched.push(
      await launch(context, {
        label: `related:serial:${i}`,
        symbol: `RSER${i}`,
        creator,
        ring: sniped ? ring : null,
      }),
    );
    context.timeline.advance(5 * MINUTE);
  }
  const mints = launched.map((l) => l.coin.mint as string);
  return launched.map((l, i) =>
    subjectOf(
      serialName(i),
      l,
      ring,
      mints,
      i < SERIAL_DEAD
        ? `Coin ${i + 1} of a serial creator’s ten, five minutes apart: a 1 % dev buy and one stranger’s 0.2 %, dead on its curve`
        : `Coin ${i + 1} of a serial creator’s ten: the sniper ring (six wallets funded by two) bought 2 % apiece in its creation slot and holds it`,
    ),
  );
}

async function seedRingCoins(context: ScenarioContext, ring: Ring): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (let i = 0; i < RING_COINS; i++) {
    const launched = await launch(context, { label: `related:ring:${i}`, symbol: `RRNG${i}`, ring });
    built.push(
      subjectOf(
        ringName(i),
        launched,
        ring,
        [launched.coin.mint],
        'A creator’s first coin, sniped: in its creation slot six wallets funded by two (the ring that snipes every coin of this cluster) bought 2 % apiece and hold it; two strangers bought later',
      ),
    );
    context.timeline.advance(4 * MINUTE);
  }
  return built;
}

/** From 16 hours to about 13.7 hours before the end: the ring funded, then its coins. */
export async function seedRelatedLaunches(context: ScenarioContext): Promise<BuiltSubject[]> {
  const ring = await fundRing(context);
  context.timeline.advance(5 * MINUTE);
  const serial = await seedSerial(context, ring);
  return [...serial, ...(await seedRingCoins(context, ring))];
}
