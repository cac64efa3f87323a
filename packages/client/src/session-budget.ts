/** What a session of paid calls may still spend (the client's budgetUsd, risk-scan mcp's --budget-usd), with calls in parallel. */

/** USD as USDC's atomic units (6 decimals). */
export const usdcUnits = (usd: number) => BigInt(Math.round(usd * 1e6));
const usdText = (atomic: bigint) => (Number(atomic) / 1e6).toString();

/** The part of the session's budget one call holds while it runs. */
export interface Allowance {
  held: bigint;
}

/**
 * What the session may still spend. A call holds the catalog's price while it runs, so calls in
 * parallel cannot overspend; when its payment is about to leave, it holds the live 402 price
 * instead, which must fit what is left (the API's price may differ from this build's catalog).
 */
export class SessionBudget {
  private held = 0n;
  private paid = 0n;
  constructor(private readonly limit: bigint | null) {}

  /** The allowance of a call costing `price` by the catalog, or null when the budget cannot cover it. */
  hold(price: bigint, maxUsd: number): Allowance | null {
    if (this.limit === null) return { held: 0n };
    // Over the per-call cap, payForCall refuses it as such, from the live offer; if the live
    // price is lower, charge() still bounds it by what is left.
    if (price > usdcUnits(maxUsd)) return { held: 0n };
    if (price > this.limit - this.held) return null;
    this.held += price;
    return { held: price };
  }

  /** Just before the payment leaves: the call now holds the live price, or false when what is left cannot cover it. */
  charge(allowance: Allowance, price: bigint): boolean {
    if (this.limit === null) return true;
    if (price > this.limit - this.held + allowance.held) return false;
    this.held += price - allowance.held;
    allowance.held = price;
    return true;
  }

  /** Ends a call: what it paid stays spent, the rest of its hold is given back. */
  release(allowance: Allowance, paidUsd: number | null): void {
    const paid = paidUsd === null ? 0n : usdcUnits(paidUsd);
    this.paid += paid;
    if (this.limit === null) return;
    this.held += paid - allowance.held;
  }

  /** What the ended calls paid, in USDC units. */
  spent(): bigint {
    return this.paid;
  }

  /** What is neither paid nor held by a call in flight, in USDC units; null without a limit. */
  remaining(): bigint | null {
    return this.limit === null ? null : this.limit - this.held;
  }

  left(): string {
    return this.limit === null ? 'unlimited' : usdText(this.limit - this.held);
  }
}
