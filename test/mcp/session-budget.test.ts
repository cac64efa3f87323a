/** The session budget of `risk-scan mcp`: calls in flight hold their price, unpaid calls give it back. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionBudget } from '../../src/mcp/paying-server.js';

describe('SessionBudget', () => {
  it('lets calls in parallel hold no more than the budget, and gives back what was not paid', () => {
    const budget = new SessionBudget(500_000n);
    const first = budget.hold(300_000n, 1);
    assert.deepEqual(first, { cap: 0.5, held: 300_000n });
    // While the first runs, a second 0.30 call would overspend: refused.
    assert.equal(budget.hold(300_000n, 1), null);
    budget.release(first!, null); // the scan failed: nothing was paid
    const again = budget.hold(300_000n, 1);
    assert.ok(again !== null);
    budget.release(again, 0.3);
    assert.equal(budget.left(), '0.2');
    assert.equal(budget.hold(300_000n, 1), null);
    assert.deepEqual(budget.hold(20_000n, 1), { cap: 0.2, held: 20_000n });
  });

  it('leaves a call over the per-call cap to be refused as such, and without a budget caps by --max-usd only', () => {
    assert.deepEqual(new SessionBudget(100_000n).hold(1_000_000n, 0.5), { cap: 0.5, held: 0n });
    assert.deepEqual(new SessionBudget(null).hold(1_000_000n, 0.5), { cap: 0.5, held: 0n });
  });
});
