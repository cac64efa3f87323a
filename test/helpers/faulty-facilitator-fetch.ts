/**
 * A fetch for the service's facilitator calls that injects faults on chosen endpoints:
 * the facilitator is down, slow past the timeout, answers garbage, or loses its answer
 * after doing the work (the settlement landed but the response never arrives).
 */
export type Fault =
  | 'down'
  | 'slow'
  | 'garbage'
  | 'http-500'
  | 'refused'
  | 'lost-after-work'
  | 'pending-after-work'
  | 'refused-after-work';

export interface FaultPlan {
  verify?: Fault;
  settle?: Fault;
  /** Faults apply to the first `times` calls only (default: always). */
  times?: number;
}

export function faultyFetch(plan: FaultPlan): typeof fetch {
  let calls = 0;
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const path = new URL(url).pathname;
    const fault = path === '/verify' ? plan.verify : path === '/settle' ? plan.settle : undefined;
    if (fault === undefined || (plan.times !== undefined && calls >= plan.times)) return fetch(input, init);
    calls++;
    switch (fault) {
      case 'down':
        throw new TypeError('fetch failed');
      case 'slow':
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      case 'garbage':
        return new Response('<html>502 bad gateway</html>', {
          status: 200,
          headers: { 'content-type': 'text/html' },
        });
      case 'http-500':
        return new Response('{"error":"internal"}', {
          status: 500,
          headers: { 'content-type': 'application/json' },
        });
      case 'refused':
        return Response.json(
          {
            success: false,
            errorReason: 'transaction_simulation_failed',
            transaction: '',
            network: 'solana',
          },
          { status: 400 },
        );
      case 'lost-after-work': {
        // The facilitator settles for real; its answer is lost on the way back.
        await fetch(input, init);
        throw new TypeError('fetch failed: socket hang up');
      }
      case 'refused-after-work': {
        // Sent and landed, then answered with a refusal (as when confirmation fails).
        const real = (await (await fetch(input, init)).json()) as { transaction?: string };
        return Response.json(
          {
            success: false,
            errorReason: 'invalid_transaction_state',
            transaction: real.transaction ?? '',
            network: 'solana',
          },
          { status: 400 },
        );
      }
      case 'pending-after-work': {
        const real = (await (await fetch(input, init)).json()) as { transaction?: string };
        return Response.json(
          {
            success: false,
            errorReason: 'settlement_pending',
            transaction: real.transaction ?? '',
            network: 'solana',
          },
          { status: 200 },
        );
      }
    }
  }) as typeof fetch;
}
