/** Number formatting and scaling shared by the assessments (pure). */

/** 0 below `from`, 1 from `to`, linear between (a hair over 0 at `from`, so a hit is never 0). */
export const ramp = (x: number, from: number, to: number) =>
  Math.max(0, Math.min(1, (x - from) / (to - from) + 0.01));
export const round = (x: number, digits = 6) => Number(x.toPrecision(digits));
export const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;
export const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** A threshold as the flags' meanings print it: 0.1 → "10 %", 0.005 → "0.5 %". */
export const percent = (x: number) => `${Math.round(x * 1000) / 10} %`;
/** a / b to six decimals, exact on bigints of any size; 0 when b is 0. */
export const ratio = (a: bigint, b: bigint) => (b === 0n ? 0 : Number((a * 1_000_000n) / b) / 1_000_000);
