/**
 * The payment core on its own: in-memory fakes for the store, the facilitator, the chain
 * lookup and the clock; no sandbox, no HTTP. One test per branch of the life cycle, each
 * named after the money rule it protects.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { PAID_ENDPOINTS } from '../../src/catalog.js';
import { type Reason, type ReasonCode, reason } from '../../src/reasons.js';
import { ScanFailedError } from '../../src/scans/scanner.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../src/solana/programs.js';
import { RpcRateLimitedError } from '../../src/solana/rpc.js';
import { createMemoryPaymentStore } from '../../src/state/payments/memory.js';
import { FacilitatorError, type SettleAnswer, type VerifyAnswer } from '../../src/x402/facilitator-client.js';
import type { FacilitatorStatus } from '../../src/x402/facilitators.js';
import { SOLANA_MAINNET_CAIP2 } from '../../src/x402/networks.js';
import type { PaidCallOutcome } from '../../src/x402/outcomes.js';
import { createPaymentGate, type PaidCall } from '../../src/x402/paid-call.js';
import type { PaymentStore } from '../../src/x402/payment-store.js';
import type { Landing } from '../../src/x402/settlement-lookup.js';
import { offlinePaymentTransaction, usdcAccountOf, v2PaymentHeader } from '../helpers/offline-payment.js';

const endpoint = PAID_ENDPOINTS.find((e) => e.id === 'wallet')!;
const PRICE = 20_000n;
const SUBJECT = 'So11111111111111111111111111111111111111112';
const OTHER_SUBJECT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const LANDED_SIGNATURE = '5'.repeat(87);

type ChainState = Landing['state'] | (() => Promise<Landing['state']>);

type Step<T> = T | Error | (() => Promise<T>);

interface FakeWorld {
  verify?: Step<VerifyAnswer>[];
  settle?: Step<SettleAnswer>[];
  /** What each look at the chain finds, in order; the last repeats. */
  chain?: ChainState[];
  /** Whether the payer's funds are seen on chain. */
  funded?: boolean;
  parallelVerify?: boolean;
  produce?: (calls: number) => Promise<string>;
  store?: PaymentStore;
  /** The facilitator is listed, but none takes the payments of its fee payer (it left between). */
  unmanaged?: boolean;
}

const VALID: VerifyAnswer = { isValid: true };
const SETTLED: SettleAnswer = { success: true, transaction: 'settledSig', network: SOLANA_MAINNET_CAIP2 };
const refusedBy = (errorReason: string, transaction = ''): SettleAnswer => ({
  success: false,
  errorReason,
  transaction,
});

/** Waits, a turn of the event loop at a time, until `done` holds (bounded: a broken core fails, never hangs). */
async function until(done: () => boolean): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    if (turns > 10_000) throw new Error('the awaited step never happened');
    await new Promise((r) => setImmediate(r));
  }
}

async function play<T>(steps: Step<T>[] | undefined, fallback: T): Promise<T> {
  const step = steps && steps.length > 0 ? steps.shift()! : fallback;
  if (step instanceof Error) throw step;
  if (typeof step === 'function') return (step as () => Promise<T>)();
  return step;
}

async function world(options: FakeWorld = {}) {
  const feePayer = (await generateKeyPairSigner()).address;
  const payTo = (await generateKeyPairSigner()).address;
  const facilitator: FacilitatorStatus = {
    url: 'http://facilitator.test',
    healthy: true,
    feePayer,
    networks: { v1: 'solana', v2: SOLANA_MAINNET_CAIP2 },
    lastError: null,
    checkedAt: 0,
  };
  const events: string[] = [];
  const unhealthy: string[] = [];
  const store = options.store ?? createMemoryPaymentStore();
  const chain = [...(options.chain ?? ['unknown'])];
  let now = 0;
  let produced = 0;
  const gate = createPaymentGate({
    facilitators: {
      status: () => [facilitator],
      byFeePayer: (f) => (f === feePayer && options.unmanaged !== true ? facilitator : null),
      markUnhealthy: (url) => unhealthy.push(url),
    },
    canProduce: () => true,
    payTo,
    destinations: { [TOKEN_PROGRAM]: await usdcAccountOf(payTo), [TOKEN_2022_PROGRAM]: 'none' } as never,
    client: {
      verify: async () => {
        events.push('verify');
        return play(options.verify, VALID);
      },
      settle: async () => {
        events.push('settle');
        return play(options.settle, SETTLED);
      },
    },
    store,
    lookup: {
      find: async () => {
        events.push('lookup');
        const next = chain.length > 1 ? chain.shift()! : chain[0]!;
        const state = typeof next === 'function' ? await next() : next;
        return { state, signature: state === 'landed' ? LANDED_SIGNATURE : null };
      },
    },
    funds: {
      covers: async () => {
        events.push('funds');
        return options.funded ?? true;
      },
    },
    produce: async (_endpoint, subject, requestId) => {
      produced++;
      events.push('produce');
      const body = options.produce
        ? await options.produce(produced)
        : JSON.stringify({ subject, request_id: requestId });
      events.push('produced');
      return body;
    },
    maxTimeoutSeconds: 60,
    verifyTimeoutMs: 1000,
    settleTimeoutMs: 1000,
    parallelVerify: options.parallelVerify ?? false,
    confirmWindowMs: 10_000,
    confirmIntervalMs: 500,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  });

  const payer = await generateKeyPairSigner();
  const newPayment = async (signer: KeyPairSigner = payer) => {
    const tx = await offlinePaymentTransaction({ payer: signer, payTo, feePayer, amount: PRICE });
    return tx;
  };
  const call = (transaction: string, subject = SUBJECT, requestId = crypto.randomUUID()): PaidCall => {
    const path = `/scan/wallet/${subject}`;
    const resourceUrl = `https://scan.test${path}`;
    return {
      endpoint,
      priceUsd: endpoint.price.usd,
      subject,
      requestId,
      payment: {
        transport: 2,
        header: v2PaymentHeader(transaction, { payTo, feePayer, amount: PRICE, resourceUrl }),
        path,
        resource: resourceUrl,
      },
    };
  };
  return {
    gate,
    store,
    events,
    unhealthy,
    newPayment,
    call,
    payTo,
    feePayer,
    produced: () => produced,
    count: (event: string) => events.filter((e) => e === event).length,
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** The payment key of a delivered or refused call. */
function keyOf(outcome: PaidCallOutcome): string {
  assert.ok(outcome.paymentKey, 'the outcome names its payment');
  return outcome.paymentKey;
}

/** A claim that was given back can be claimed again. */
async function isReleased(w: World, key: string): Promise<boolean> {
  const probe = crypto.randomUUID();
  const state = (await w.store.claim(key, probe)).state;
  if (state === 'claimed') await w.store.release(key, probe);
  return state === 'claimed';
}

function receiptOf(outcome: PaidCallOutcome): Record<string, unknown> | null {
  const header =
    outcome.kind === 'deliver'
      ? outcome.response.headers['PAYMENT-RESPONSE']
      : outcome.kind === 'refuse'
        ? outcome.receipt?.value
        : undefined;
  return header ? JSON.parse(Buffer.from(header, 'base64').toString()) : null;
}

/** The reasons-table code an outcome gives: a 402's, or a failure's (src/reasons.ts). */
function codeOf(outcome: PaidCallOutcome): ReasonCode | null {
  if (outcome.kind === 'refuse' || outcome.kind === 'pending') return outcome.code;
  return outcome.kind === 'failed' ? outcome.error.reason : null;
}

/** A 402 outcome's reason: its code and its words. */
function reasonOf(outcome: PaidCallOutcome): Reason | null {
  return outcome.kind === 'refuse' || outcome.kind === 'pending'
    ? { code: outcome.code, text: outcome.reason }
    : null;
}

describe('payment core: admission', { timeout: 20_000 }, () => {
  it('a malformed payment is refused and never claimed (a refusal never claims)', async () => {
    const w = await world();
    const call = w.call(await w.newPayment());
    const outcome = await w.gate.handle({ ...call, payment: { ...call.payment, header: 'not base64!' } });
    assert.equal(outcome.kind, 'refuse');
    assert.equal(codeOf(outcome), 'header_not_base64_json');
    assert.deepEqual(w.events, [], 'no facilitator call, no scan');
  });

  it('a payment for the wrong amount is refused before any claim or call (pay the price, exactly)', async () => {
    const w = await world();
    const tx = await offlinePaymentTransaction({
      payer: await generateKeyPairSigner(),
      payTo: w.payTo,
      feePayer: w.feePayer,
      amount: PRICE - 1n,
    });
    const outcome = await w.gate.handle(w.call(tx));
    assert.equal(outcome.kind, 'refuse');
    assert.deepEqual(reasonOf(outcome), reason('transfer_amount', { amount: '19999', price: '20000' }));
    assert.equal(outcome.paymentKey, null);
    assert.deepEqual(w.events, []);
  });
});

describe('payment core: a fee payer no facilitator manages', { timeout: 20_000 }, () => {
  it('is refused before any claim or call (no one could settle it)', async () => {
    const w = await world({ unmanaged: true });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(codeOf(outcome), 'fee_payer_unmanaged');
    assert.deepEqual(w.events, [], 'no facilitator, chain or scan was asked');
  });
});

describe('payment core: claims', { timeout: 20_000 }, () => {
  it('a payment claimed by another request is refused without work (one payment, one result)', async () => {
    let finishVerify!: () => void;
    const w = await world({
      verify: [() => new Promise<VerifyAnswer>((r) => (finishVerify = () => r(VALID)))],
    });
    const tx = await w.newPayment();
    const first = w.gate.handle(w.call(tx));
    await until(() => w.count('verify') > 0);
    const second = await w.gate.handle(w.call(tx));
    assert.equal(second.kind, 'refuse');
    assert.equal(codeOf(second), 'payment_in_use');
    finishVerify();
    assert.equal((await first).kind, 'deliver');
    assert.equal(w.count('settle'), 1);
    assert.equal(w.produced(), 1);
  });

  it('a settled payment presented again for its path gets the same stored response (a lost response is never lost)', async () => {
    const w = await world();
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    const again = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'deliver');
    assert.deepEqual(again, { ...first, replay: true }, 'the same response, marked as a replay');
    assert.equal(w.count('settle'), 1, 'settled once');
    assert.equal(w.produced(), 1, 'produced once');
  });

  it('a settled payment presented for another path is refused and names its path (never another subject’s result)', async () => {
    const w = await world();
    const tx = await w.newPayment();
    await w.gate.handle(w.call(tx));
    const elsewhere = await w.gate.handle(w.call(tx, OTHER_SUBJECT));
    assert.equal(elsewhere.kind, 'refuse');
    assert.deepEqual(
      reasonOf(elsewhere),
      reason('payment_paid_for_another', { path: `/scan/wallet/${SUBJECT}` }),
    );
    assert.equal(w.produced(), 1);
  });
});

describe('payment core: verification', { timeout: 20_000 }, () => {
  it('verify invalid: refused, claim released, nothing produced or settled (never settle what was not verified)', async () => {
    const w = await world({ verify: [{ isValid: false, invalidReason: 'insufficient_funds' }] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    assert.deepEqual(
      reasonOf(outcome),
      reason('payment_refused', { facilitatorReason: 'insufficient_funds' }),
    );
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
    assert.equal(w.produced(), 0);
    assert.equal(w.count('settle'), 0);
  });

  it('verify error: refused, released, facilitator marked unhealthy (a facilitator fault costs the payer nothing)', async () => {
    const w = await world({ verify: [new FacilitatorError('timeout', '/verify timed out after 1000 ms')] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    assert.equal(codeOf(outcome), 'verify_unavailable');
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
    assert.deepEqual(w.unhealthy, ['http://facilitator.test']);
    assert.equal(w.count('settle'), 0);
  });
});

describe('payment core: unexpected errors', { timeout: 20_000 }, () => {
  it('an error before settling is a 500, the claim released, nothing settled', async () => {
    const w = await world({ verify: [new TypeError('a bug in the verify path')] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'failed');
    assert.equal((outcome as { error: { code: string } }).error.code, 'internal_error');
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
    assert.equal(w.count('settle'), 0);
  });

  it('an error thrown by the settle call is an unknown answer: the chain decides, never "nothing was charged"', async () => {
    const w = await world({ settle: [new TypeError('socket hang up')], chain: ['landed'] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
  });
});

describe('payment core: producing the result', { timeout: 20_000 }, () => {
  it('scan fails: 500, claim released, nothing settled (never settle for a result not delivered)', async () => {
    const w = await world({ produce: async () => Promise.reject(new ScanFailedError('RPC unreachable')) });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'failed');
    assert.equal((outcome as { error: { code: string } }).error.code, 'scan_failed');
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
    assert.equal(w.count('settle'), 0);
  });

  it('scan times out: 500, claim released, nothing settled, and the payment then buys a result', async () => {
    const w = await world({
      produce: async (n) => {
        if (n === 1) throw new ScanFailedError('the scan took longer than 20000 ms');
        return '{"ok":true}';
      },
    });
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'failed');
    assert.equal(w.count('settle'), 0);
    const second = await w.gate.handle(w.call(tx));
    assert.equal(second.kind, 'deliver');
    assert.equal(w.count('settle'), 1);
  });

  it('settlement starts only once the result exists', async () => {
    const w = await world({ parallelVerify: true });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.ok(w.events.indexOf('produced') < w.events.indexOf('settle'), w.events.join(' → '));
  });
});

describe('payment core: settlement', { timeout: 20_000 }, () => {
  it('settled: the result is delivered with a receipt naming the transaction, and recorded', async () => {
    const w = await world();
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.deepEqual(receiptOf(outcome), {
      success: true,
      transaction: 'settledSig',
      network: SOLANA_MAINNET_CAIP2,
      payer: (receiptOf(outcome) as { payer: string }).payer,
    });
    assert.equal((await w.store.claim(keyOf(outcome), 'probe')).state, 'settled');
  });

  it('refused before sending: 402 "nothing was charged", failed receipt, claim released', async () => {
    const w = await world({ settle: [refusedBy('invalid_exact_svm_transaction_simulation_failed')] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    const detail = 'invalid_exact_svm_transaction_simulation_failed';
    assert.deepEqual(reasonOf(outcome), reason('settlement_failed', { detail }));
    assert.equal(receiptOf(outcome)?.success, false);
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
    assert.equal(w.count('lookup'), 0, 'a refusal before sending needs no look at the chain');
  });

  it('ambiguous (timeout) and landed: delivered, receipt names the transaction found on chain', async () => {
    const w = await world({
      settle: [new FacilitatorError('timeout', '/settle timed out')],
      chain: ['landed'],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.equal(receiptOf(outcome)?.success, true);
    assert.equal(receiptOf(outcome)?.transaction, LANDED_SIGNATURE, 'never an empty transaction');
    assert.equal((await w.store.claim(keyOf(outcome), 'probe')).state, 'settled');
  });

  it('ambiguous and not landed yet: pending, the result kept for the payer (a result paid for is never lost)', async () => {
    const w = await world({
      settle: [new FacilitatorError('http', '/settle answered HTTP 502')],
      chain: ['unknown'],
    });
    const tx = await w.newPayment();
    const outcome = await w.gate.handle(w.call(tx));
    assert.equal(outcome.kind, 'pending');
    assert.equal(w.count('lookup'), 21, 'watched for the whole window: 10 s every 500 ms');
    const held = await w.store.claim(keyOf(outcome), 'probe');
    assert.equal(held.state, 'pending');
    assert.equal(w.produced(), 1);
  });

  const rateLimited = async (): Promise<Landing['state']> => {
    throw new RpcRateLimitedError('getSignaturesForAddress', 4, { cause: new Error('HTTP 429') });
  };

  it("ambiguous, and the RPC rate-limits the looks past the window: asked again within the payment's timeout, delivered once it lands", async () => {
    const w = await world({
      settle: [new FacilitatorError('http', '/settle answered HTTP 502')],
      // 21 looks fill the 10 s window (every 500 ms); the 22nd finds the payment.
      chain: [...Array.from({ length: 21 }, () => rateLimited), 'landed'],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.equal(receiptOf(outcome)?.transaction, LANDED_SIGNATURE);
    assert.equal(w.count('lookup'), 22);
  });

  it('rate-limited looks end at the settle budget (settle timeout + window), then pending', async () => {
    const w = await world({
      settle: [new FacilitatorError('http', '/settle answered HTTP 502')],
      chain: [rateLimited],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'pending');
    assert.equal(w.count('lookup'), 23, 'every 500 ms until 1 s of settle timeout + 10 s of window');
  });

  it('ambiguous and the blockhash expired unlanded: "did not land; nothing was charged", claim released', async () => {
    const w = await world({
      settle: [new FacilitatorError('unreachable', '/settle unreachable')],
      chain: ['expired'],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    const detail = '/settle unreachable; the payment did not land';
    assert.deepEqual(reasonOf(outcome), reason('settlement_failed', { detail }));
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
  });

  it('a refusal given after sending is never "nothing was charged": the chain is asked, and landed delivers', async () => {
    for (const reason of [
      'invalid_exact_svm_transaction_failed',
      'invalid_transaction_state',
      'unexpected_settle_error',
    ]) {
      const w = await world({ settle: [refusedBy(reason, 'sentSig')], chain: ['landed'] });
      const outcome = await w.gate.handle(w.call(await w.newPayment()));
      assert.equal(outcome.kind, 'deliver', reason);
      assert.ok(w.count('lookup') > 0, `${reason}: the chain was asked`);
    }
    const w = await world({
      settle: [refusedBy('invalid_transaction_state', 'sentSig')],
      chain: ['unknown'],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'pending');
    assert.equal(codeOf(outcome), 'settlement_unconfirmed', 'pending: nothing is said about money');
  });

  it('a duplicate settlement is payment_used, even though the payment landed (landing is not buying)', async () => {
    const w = await world({ settle: [refusedBy('duplicate_settlement')], chain: ['landed'] });
    const tx = await w.newPayment();
    const outcome = await w.gate.handle(w.call(tx));
    assert.equal(outcome.kind, 'refuse');
    assert.equal(codeOf(outcome), 'payment_settled_elsewhere');
    // Kept as spent: presented again, it costs no verify and no scan.
    const before = w.events.length;
    const again = await w.gate.handle(w.call(tx));
    assert.equal(codeOf(again), 'payment_settled_elsewhere');
    assert.equal(w.events.length, before);
  });

  it('landed on chain but the store shows another claim: payment_used, never delivered', async () => {
    const inner = createMemoryPaymentStore();
    // Another instance took the claim over while this one was settling.
    const store: PaymentStore = { ...inner, record: async () => false };
    const w = await world({
      store,
      settle: [new FacilitatorError('timeout', '/settle timed out')],
      chain: ['landed'],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    assert.equal(codeOf(outcome), 'payment_settled_elsewhere');
  });

  it('a success without a transaction is looked up, so the receipt still names it', async () => {
    const w = await world({ settle: [{ success: true, transaction: '' }], chain: ['landed'] });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.equal(receiptOf(outcome)?.transaction, LANDED_SIGNATURE);
  });
});

describe('payment core: the result is kept before settling', { timeout: 20_000 }, () => {
  it('an instance that dies during the settle call leaves its result pending: the chain decides, no second result', async () => {
    let storeNow = 0;
    const store = createMemoryPaymentStore({ inFlightTtlMs: 60_000, now: () => storeNow });
    const w = await world({ store, settle: [() => new Promise<SettleAnswer>(() => {})], chain: ['landed'] });
    const tx = await w.newPayment();
    const first = w.call(tx);
    void w.gate.handle(first); // its settle call never answers: the process is gone
    await until(() => w.count('settle') > 0);
    storeNow = 60_001;
    const again = await w.gate.handle(w.call(tx));
    assert.equal(again.kind, 'deliver');
    assert.equal(w.produced(), 1, 'no second scan');
    assert.equal(w.count('settle'), 1, 'no second settlement');
    const body = JSON.parse((again as { response: { body: string } }).response.body);
    assert.equal(body.request_id, first.requestId, 'the result the payment bought');
    assert.equal(receiptOf(again)?.transaction, LANDED_SIGNATURE);
  });

  it('a result that cannot be kept is not settled: 500, nothing charged', async () => {
    const inner = createMemoryPaymentStore();
    const store: PaymentStore = {
      ...inner,
      markSending: async () => {
        throw new Error('disk full');
      },
    };
    const w = await world({ store });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'failed');
    assert.equal(codeOf(outcome), 'store_unwritable');
    assert.equal(w.count('settle'), 0);
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
  });

  it('a claim taken over before settling is not settled', async () => {
    const inner = createMemoryPaymentStore();
    const w = await world({ store: { ...inner, markSending: async () => false } });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    assert.equal(codeOf(outcome), 'payment_taken_over');
    assert.equal(w.count('settle'), 0);
  });
});

describe('payment core: a store that fails at the claim', { timeout: 20_000 }, () => {
  it('says nothing about money, and gives back a claim its failed command may have taken', async () => {
    const inner = createMemoryPaymentStore();
    let failing = true;
    const store: PaymentStore = {
      ...inner,
      claim: async (key, holder) => {
        const taken = await inner.claim(key, holder);
        if (failing) throw new Error('Command timed out'); // it ran, but its answer was lost
        return taken;
      },
    };
    const w = await world({ store });
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'failed');
    // Its words never say "nothing was charged": an earlier request may have been (test/reasons.test.ts).
    assert.equal(codeOf(first), 'store_unreadable');
    assert.equal(w.count('verify'), 0);
    failing = false;
    const again = await w.gate.handle(w.call(tx));
    assert.equal(again.kind, 'deliver', 'not left "in use" until the claim expires');
  });
});

describe('payment core: a store that fails taking a pending payment for a re-check', {
  timeout: 20_000,
}, () => {
  it('keeps the paid result: it is pending again once the lost re-check claim expires', async () => {
    let storeNow = 0;
    const inner = createMemoryPaymentStore({ inFlightTtlMs: 60_000, now: () => storeNow });
    let failing = false;
    const store: PaymentStore = {
      ...inner,
      claimPending: async (key, holder) => {
        const taken = await inner.claimPending(key, holder);
        if (failing) throw new Error('Command timed out'); // it ran, but its answer was lost
        return taken;
      },
    };
    const w = await world({ store, settle: [new FacilitatorError('timeout', '/settle timed out')] });
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'pending');
    failing = true;
    const broken = await w.gate.handle(w.call(tx));
    assert.equal(broken.kind, 'failed');
    assert.equal(codeOf(broken), 'store_unreadable', 'nothing is said about money');
    storeNow = 60_001;
    const kept = await inner.claim(keyOf(first), 'probe');
    assert.equal(kept.state, 'pending', 'the result is still kept for its payer');
  });
});

describe('payment core: a store that fails after settlement', { timeout: 20_000 }, () => {
  it('the result is delivered, and recorded once the store answers again (a paid result is never lost)', async () => {
    const inner = createMemoryPaymentStore();
    let down = true;
    const store: PaymentStore = {
      ...inner,
      record: async (...args) => {
        if (down) throw new Error('connection refused');
        return inner.record(...args);
      },
    };
    const w = await world({ store });
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'deliver', 'delivered although the record failed');
    assert.equal(await w.gate.retryRecords(), 1, 'still waiting while the store is down');
    down = false;
    assert.equal(await w.gate.retryRecords(), 0);
    const again = await w.gate.handle(w.call(tx));
    assert.equal(again.kind, 'deliver');
    assert.deepEqual(
      (again as { response: unknown }).response,
      (first as { response: unknown }).response,
      'the same stored response',
    );
    assert.equal(w.count('settle'), 1);
    await w.gate.close();
  });

  it('a sale seen only on chain is not delivered while the store cannot confirm the claim: pending, then replayed', async () => {
    const inner = createMemoryPaymentStore();
    let down = true;
    const store: PaymentStore = {
      ...inner,
      record: async (...args) => {
        if (down) throw new Error('connection refused');
        return inner.record(...args);
      },
    };
    const w = await world({
      store,
      settle: [new FacilitatorError('timeout', '/settle timed out')],
      chain: ['landed'],
    });
    const tx = await w.newPayment();
    const first = await w.gate.handle(w.call(tx));
    assert.equal(first.kind, 'pending');
    assert.equal(codeOf(first), 'sale_unrecorded');
    down = false;
    assert.equal(await w.gate.retryRecords(), 0, 'recorded once the store is back');
    const again = await w.gate.handle(w.call(tx));
    assert.equal(again.kind, 'deliver');
    assert.equal(w.produced(), 1);
    await w.gate.close();
  });
});

describe('payment core: a pending payment presented again', { timeout: 20_000 }, () => {
  async function pendingWorld(chain: ChainState[]) {
    const w = await world({
      settle: [new FacilitatorError('timeout', '/settle timed out')],
      chain: ['unknown', ...Array.from({ length: 20 }, () => 'unknown' as const), ...chain],
    });
    const tx = await w.newPayment();
    assert.equal((await w.gate.handle(w.call(tx))).kind, 'pending');
    return { w, tx };
  }

  it('landed since: the kept result is delivered with a successful receipt, produced once', async () => {
    const { w, tx } = await pendingWorld(['landed']);
    const outcome = await w.gate.handle(w.call(tx));
    assert.equal(outcome.kind, 'deliver');
    assert.equal(receiptOf(outcome)?.success, true);
    assert.equal(receiptOf(outcome)?.transaction, LANDED_SIGNATURE);
    assert.equal(w.produced(), 1);
    assert.equal(w.count('settle'), 1, 'never settled twice');
  });

  it('expired unlanded since: "did not land; nothing was charged", released', async () => {
    const { w, tx } = await pendingWorld(['expired']);
    const outcome = await w.gate.handle(w.call(tx));
    assert.equal(codeOf(outcome), 'payment_not_landed');
    assert.equal(await isReleased(w, keyOf(outcome)), true, 'the claim was given back');
  });

  it('two concurrent re-checks: one looks at the chain, the other is told the payment is in use', async () => {
    let answer!: () => void;
    const slowLook = () => new Promise<Landing['state']>((r) => (answer = () => r('unknown')));
    const { w, tx } = await pendingWorld([slowLook, 'unknown']);
    const first = w.gate.handle(w.call(tx));
    await until(() => answer !== undefined);
    const second = await w.gate.handle(w.call(tx));
    answer();
    const [a, b] = [await first, second];
    const kinds = [a.kind, b.kind].sort();
    assert.deepEqual(kinds, ['pending', 'refuse']);
    assert.equal(codeOf(a.kind === 'refuse' ? a : b), 'payment_in_use');
    assert.equal((await w.store.claim(keyOf(a), 'probe')).state, 'pending', 'still kept for the payer');
  });

  it('two re-checks that both found it pending: the one that takes it second is told another request re-checks it', async () => {
    // The store's own order, made to interleave: both requests see the payment pending, then the
    // first takes it for its re-check before the second asks to (a fake only orders the calls).
    let secondAsks!: () => void;
    const secondAsked = new Promise<void>((r) => (secondAsks = r));
    let firstTook!: () => void;
    const firstTaken = new Promise<void>((r) => (firstTook = r));
    const real = createMemoryPaymentStore();
    let asks = 0;
    const store: PaymentStore = {
      ...real,
      claimPending: async (key, holder) => {
        if (++asks === 1) {
          await secondAsked;
          return real.claimPending(key, holder).finally(firstTook);
        }
        secondAsks();
        await firstTaken;
        return real.claimPending(key, holder);
      },
    };
    const w = await world({
      store,
      settle: [new FacilitatorError('timeout', '/settle timed out')],
      chain: ['unknown', ...Array.from({ length: 20 }, () => 'unknown' as const), 'unknown'],
    });
    const tx = await w.newPayment();
    assert.equal((await w.gate.handle(w.call(tx))).kind, 'pending');
    const both = await Promise.all([w.gate.handle(w.call(tx)), w.gate.handle(w.call(tx))]);
    assert.equal(asks, 2, 'both requests asked to re-check it');
    const rechecked = both.find((o) => o.kind === 'pending');
    const refused = both.find((o) => o.kind === 'refuse');
    assert.ok(rechecked && refused, `one re-checks the chain, one is refused: ${both.map((o) => o.kind)}`);
    assert.deepEqual(reasonOf(refused), reason('payment_rechecked_elsewhere'));
    assert.equal(
      (await w.store.claim(keyOf(rechecked), 'probe')).state,
      'pending',
      'still kept for the payer',
    );
  });

  it('presented for another path while pending: refused, names the path it is being settled for', async () => {
    const { w, tx } = await pendingWorld(['landed']);
    const outcome = await w.gate.handle(w.call(tx, OTHER_SUBJECT));
    assert.deepEqual(
      reasonOf(outcome),
      reason('payment_settling_for_another', { path: `/scan/wallet/${SUBJECT}` }),
    );
  });
});

describe('payment core: parallel verify', { timeout: 20_000 }, () => {
  it('on, funds seen: the scan starts while the facilitator verifies', async () => {
    let finishVerify!: () => void;
    const w = await world({
      parallelVerify: true,
      verify: [() => new Promise<VerifyAnswer>((r) => (finishVerify = () => r(VALID)))],
    });
    const running = w.gate.handle(w.call(await w.newPayment()));
    await until(() => w.produced() > 0);
    assert.equal(w.count('settle'), 0);
    finishVerify();
    assert.equal((await running).kind, 'deliver');
    assert.equal(w.produced(), 1, 'the speculative scan is the one sold');
  });

  it('on, no funds seen: a payment that fails verification costs no scan', async () => {
    const w = await world({
      parallelVerify: true,
      funded: false,
      verify: [{ isValid: false, invalidReason: 'insufficient_funds' }],
    });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'refuse');
    await new Promise((r) => setImmediate(r));
    assert.equal(w.produced(), 0);
  });

  it('on, no funds seen but verify says valid: the scan runs after verification', async () => {
    const w = await world({ parallelVerify: true, funded: false });
    const outcome = await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(outcome.kind, 'deliver');
    assert.ok(w.events.indexOf('verify') < w.events.indexOf('produce'), w.events.join(' → '));
  });

  it('off: nothing is produced before the facilitator says the payment is valid', async () => {
    const w = await world({ parallelVerify: false });
    await w.gate.handle(w.call(await w.newPayment()));
    assert.equal(w.count('funds'), 0, 'no look at the funds either');
    assert.ok(w.events.indexOf('verify') < w.events.indexOf('produce'), w.events.join(' → '));
  });
});
