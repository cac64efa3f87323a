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
  /** A call pays `usd` for each item its input holds, 1 to `most`. */
  | { readonly per: 'item'; readonly usd: number; readonly most: number };

/** Decimal places of USDC, the payment asset. */
export const USDC_DECIMALS = 6;

/** Price in USDC atomic units as the decimal string x402 carries (0.50 → "500000"). */
export function atomicPrice(priceUsd: number): string {
  return String(Math.round(priceUsd * 10 ** USDC_DECIMALS));
}

/** What one purchase of `units` (hours, items; 1 for a price per call) costs in USD. */
export function purchasePriceUsd(rule: PriceRule, units = 1): number {
  if (rule.per === 'call') return rule.usd;
  // Rounded to USDC's atomic unit, so 0.01 × 3 is 0.03 and not 0.030000000000000002.
  return Math.round(rule.usd * units * 10 ** USDC_DECIMALS) / 10 ** USDC_DECIMALS;
}

/** The least and most one purchase costs: the price per call twice, or 1 unit and the most units. */
export function purchaseRange(rule: PriceRule): { readonly min: number; readonly max: number } {
  const most = rule.per === 'call' ? 1 : rule.most;
  return { min: purchasePriceUsd(rule, 1), max: purchasePriceUsd(rule, most) };
}

/** '0.30 USDC per call', '0.01 USDC per hour', '0.05 USDC per item'. */
export function ruleText(rule: PriceRule): string {
  return `${rule.usd.toFixed(2)} USDC per ${rule.per}`;
}
