/**
 * How an endpoint is priced, as a tagged rule: the same for every call, by the hour (a watch),
 * or by the item (a batch). What one purchase costs is the rule applied to how many units its
 * input asks for; every price a document, an offer or a 402 shows comes from here.
 */

export type PriceRule =
  /** Every call pays `usd`. */
  | { readonly per: 'call'; readonly usd: number }
  /** A call pays `usd` for each hour its input asks for, 1 to `most`. */
  | { readonly per: 'hour'; readonly usd: number; readonly most: number }
  /**
   * A call pays, for each distinct item its input holds (1 to `most`), the price of the item's
   * kind (`usd`, by kind: a batch's items cost what their single scans cost), less the discount
   * the operator sets (BATCH_DISCOUNT_PERCENT), rounded to the USDC atomic unit per item.
   */
  | { readonly per: 'item'; readonly usd: Readonly<Record<string, number>>; readonly most: number };

export type ItemRule = Extract<PriceRule, { per: 'item' }>;

/** Decimal places of USDC, the payment asset. */
export const USDC_DECIMALS = 6;

const ATOMIC = 10 ** USDC_DECIMALS;

/** USD as whole USDC atomic units (0.3 → 300000): sums of these are exact. */
const atomicUnits = (usd: number): number => Math.round(usd * ATOMIC);

/** Price in USDC atomic units as the decimal string x402 carries (0.50 → "500000"). */
export function atomicPrice(priceUsd: number): string {
  return String(atomicUnits(priceUsd));
}

/** One item of `kind`, less `discountPercent`, in atomic units (rounded per item, so a sum is exact). */
function itemAtomic(rule: ItemRule, kind: string, discountPercent: number): number {
  const usd = rule.usd[kind];
  if (usd === undefined) throw new Error(`no price per item for ${kind}`);
  return Math.round((atomicUnits(usd) * (100 - discountPercent)) / 100);
}

/** What `count` items of `kind` cost in USD, less `discountPercent` (exact to the atomic unit). */
export function itemsPriceUsd(rule: ItemRule, kind: string, count: number, discountPercent = 0): number {
  return (itemAtomic(rule, kind, discountPercent) * count) / ATOMIC;
}

/** The cheapest and dearest item of a rule per item, in USD, less `discountPercent`. */
function itemPrices(
  rule: ItemRule,
  discountPercent: number,
): { readonly least: number; readonly most: number } {
  const each = Object.keys(rule.usd).map((kind) => itemAtomic(rule, kind, discountPercent));
  return { least: Math.min(...each) / ATOMIC, most: Math.max(...each) / ATOMIC };
}

/**
 * What one purchase of `units` (hours, items; 1 for a price per call) costs in USD; items at the
 * cheapest kind's price (an order's own price is itemsPriceUsd).
 */
export function purchasePriceUsd(rule: PriceRule, units = 1, discountPercent = 0): number {
  if (rule.per === 'call') return rule.usd;
  const unit =
    rule.per === 'hour' ? atomicUnits(rule.usd) : atomicUnits(itemPrices(rule, discountPercent).least);
  // In atomic units, so 0.01 × 3 is 0.03 and not 0.030000000000000002.
  return (unit * units) / ATOMIC;
}

/** The least and most one purchase costs: the price per call twice, or 1 unit and the most units. */
export function purchaseRange(
  rule: PriceRule,
  discountPercent = 0,
): { readonly min: number; readonly max: number } {
  if (rule.per === 'call') return { min: rule.usd, max: rule.usd };
  if (rule.per === 'hour') return { min: purchasePriceUsd(rule, 1), max: purchasePriceUsd(rule, rule.most) };
  const { least, most } = itemPrices(rule, discountPercent);
  return { min: least, max: (atomicUnits(most) * rule.most) / ATOMIC };
}

/** USD with at least two places and no more than it needs: 0.3 → "0.30", 0.018 → "0.018". */
export function usdText(usd: number): string {
  const [whole = '0', fraction = ''] = usd.toFixed(USDC_DECIMALS).replace(/0+$/, '').split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** What one unit costs, in USDC: '0.30', or for a price per item '0.02 to 0.50' (by kind). */
export function unitPriceText(rule: PriceRule, discountPercent = 0): string {
  if (rule.per !== 'item') return rule.usd.toFixed(2);
  const { least, most } = itemPrices(rule, discountPercent);
  return `${usdText(least)} to ${usdText(most)}`;
}

/**
 * '0.30 USDC per call', '0.01 USDC per hour', '0.02 to 0.50 USDC per item (the single scan price
 * of its kind, less 10 %)'.
 */
export function ruleText(rule: PriceRule, discountPercent = 0): string {
  const unit = `${unitPriceText(rule, discountPercent)} USDC per ${rule.per}`;
  if (rule.per !== 'item') return unit;
  const less = discountPercent === 0 ? '' : `, less ${discountPercent} %`;
  return `${unit} (the single scan price of its kind${less})`;
}
