/**
 * Pure: a swap through Meteora DLMM bins. Each bin trades at its own fixed price
 * (1 + bin_step / 10 000)^id (raw Y per raw X) until one side of it is empty: X in takes the bins'
 * Y from the active bin downwards, Y in takes their X from the active bin upwards. The fee (base
 * fee plus the variable fee in force) is taken from the input first. Reaching the last bin array
 * read ends the walk: the leg is partial and says so.
 */
import type { Bin } from '../../../solana/decoders/meteora-dlmm-bin-array.js';
import { afterFee, type Fee, filled, type Leg, partial } from './model.js';

export interface BinState {
  readonly activeId: number;
  readonly binStep: number;
  /** The bins read (absent ids inside [lowestId, highestId] are empty). */
  readonly bins: ReadonlyMap<number, Bin>;
  readonly lowestId: number;
  readonly highestId: number;
  readonly fee: Fee;
}

export const binPrice = (binStep: number, id: number): number => (1 + binStep / 10_000) ** id;

/** amount × price, rounded down, or null when the price makes no finite amount. */
function times(amount: bigint, price: number): bigint | null {
  const x = Number(amount) * price;
  return Number.isFinite(x) && x >= 0 ? BigInt(Math.floor(x)) : null;
}

/** X in when `xToY`, else Y in: what comes out, or how far the bins read went. */
export function binSwap(state: BinState, xToY: boolean, amountIn: bigint): Leg {
  const net = afterFee(amountIn, state.fee);
  let rest = net;
  let out = 0n;
  const step = xToY ? -1 : 1;
  const end = xToY ? state.lowestId : state.highestId;
  for (let id = state.activeId; xToY ? id >= end : id <= end; id += step) {
    if (rest === 0n) break;
    const bin = state.bins.get(id);
    const held = bin ? (xToY ? bin.amountY : bin.amountX) : 0n;
    if (held === 0n) continue;
    const price = binPrice(state.binStep, id);
    // What the bin's whole side costs in the input token, and what the input left buys.
    const cost = xToY ? times(held, 1 / price) : times(held, price);
    if (cost === null) return partial(0n, out, `bin ${id}'s price is out of range`);
    if (rest <= cost) {
      const bought = xToY ? times(rest, price) : times(rest, 1 / price);
      out += bought === null ? 0n : bought < held ? bought : held;
      rest = 0n;
      break;
    }
    rest -= cost;
    out += held;
  }
  if (rest === 0n) return filled(out);
  const used = net === 0n ? 0n : amountIn - (amountIn * rest) / net;
  return partial(used, out, 'the trade runs past the bins read around the active bin');
}
