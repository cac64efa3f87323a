/**
 * Pure: a swap through a constant-product pool (x·y = k) with the pool's fee taken from the input:
 * out = R_out × in·(1 − f) / (R_in + in·(1 − f)). PumpSwap, Raydium AMM v4 and CPMM and Meteora
 * DAMM v1 (constant-product curve) trade so; bigint throughout, so any reserve a pool's bytes state
 * is quoted without overflow.
 */
import { afterFee, type Fee, filled, type Leg, partial } from './model.js';

export function constantProductOut(
  reserveIn: bigint,
  reserveOut: bigint,
  amountIn: bigint,
  fee: Fee,
): bigint {
  const net = afterFee(amountIn, fee);
  if (net <= 0n || reserveIn < 0n || reserveOut <= 0n) return 0n;
  return (reserveOut * net) / (reserveIn + net);
}

/** One leg; a pool with an empty side cannot fill anything, and says so. */
export function constantProductLeg(reserveIn: bigint, reserveOut: bigint, amountIn: bigint, fee: Fee): Leg {
  if (reserveIn <= 0n || reserveOut <= 0n) return partial(0n, 0n, 'the pool holds nothing on one side');
  return filled(constantProductOut(reserveIn, reserveOut, amountIn, fee));
}
