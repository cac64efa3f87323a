/**
 * Payment state outlives the process: the API is killed with SIGKILL (after a sale, and in the
 * middle of one) and started again on the same STATE_DIR, while the sandbox chain and its
 * facilitators keep running. A result paid for is never lost; one payment buys one result.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { selling } from '../../src/service/index.js';
import { type ApiProcess, startApiProcess } from '../helpers/api-process.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { jsonOf } from '../helpers/service.js';

const PRICE = 20_000n; // /scan/wallet
const OTHER_WALLET = 'So11111111111111111111111111111111111111112';
// Every API process names resources alike, whatever port it gets.
const PUBLIC_BASE_URL = 'https://scan.test';

/** Forwards to a facilitator; while `holdSettle` is set, a settle is sent on but never answered. */
async function startFacilitatorRelay(target: string) {
  const relay = { holdSettle: false, settled: 0, onHeld: () => {} };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await fetch(target + req.url, {
      method: req.method!,
      headers: { 'content-type': 'application/json' },
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = await upstream.text();
    if (req.url === '/settle') relay.settled++;
    if (req.url === '/settle' && relay.holdSettle) {
      relay.onHeld(); // the transaction has landed; its answer never reaches the API
      return;
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    relay,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('payment state across a kill -9', { timeout: 120_000 }, () => {
  let s: PaidSandbox;
  let stateDir: string;
  let facilitator: Awaited<ReturnType<typeof startFacilitatorRelay>>;
  let api: ApiProcess | null = null;

  const startApi = async () => {
    api = await startApiProcess({
      RISK_SCAN_MODE: 'mainnet',
      PAY_TO: s.payTo,
      PUBLIC_BASE_URL,
      SOLANA_RPC_URL: s.rpcServer.url,
      FACILITATOR_URLS: facilitator.url,
      STATE_DIR: stateDir,
      SCAN_TIMEOUT_MS: '3000',
      FACILITATOR_TIMEOUT_MS: '2000',
      SETTLE_TIMEOUT_MS: '5000',
      CONFIRM_WINDOW_MS: '1000',
      RPC_TIMEOUT_MS: '2000',
      PAYMENT_CLAIM_TTL_SECONDS: '23',
    });
    return api;
  };
  const paymentFor = async (base: string, path: string) => {
    const offer = await offerOf(base + path);
    assert.equal(offer.resourceUrl, PUBLIC_BASE_URL + path);
    return encodeHeader(await v2Payment(s.payer, s.rpcServer.url, offer.v2, offer.resourceUrl));
  };

  before(async () => {
    s = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    stateDir = await mkdtemp(join(tmpdir(), 'restart-state-'));
    facilitator = await startFacilitatorRelay(s.facilitators[0]!.url);
  });
  after(async () => {
    await api?.kill();
    await facilitator.close();
    await s.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('after a sale: presented for another subject first, it buys nothing; its payer then gets the stored response', async () => {
    const path = `/scan/wallet/${s.payer.address}`;
    const first = await startApi();
    const header = await paymentFor(first.url, path);
    const payToBefore = await s.usdcBalance(s.payTo);
    const sold = await pay(first.url + path, header);
    assert.equal(sold.status, 200);
    const soldBody = await sold.text();
    await first.kill();

    const restarted = await startApi();
    const other = await pay(`${restarted.url}/scan/wallet/${OTHER_WALLET}`, header);
    const otherBody = await jsonOf(other);
    assert.equal(other.status, 402);
    assert.equal(refusalCode(otherBody), 'payment_paid_for_another');
    const replay = await pay(restarted.url + path, header);
    assert.equal(replay.status, 200);
    assert.equal(await replay.text(), soldBody, 'the same stored response, same request_id');
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE, 'charged once');
    await restarted.kill();
  });

  it('killed while settling: once restarted, the chain decides and the payer gets the one result it bought', async () => {
    const path = `/scan/wallet/${s.payer.address}`;
    const first = await startApi();
    const header = await paymentFor(first.url, path);
    const payToBefore = await s.usdcBalance(s.payTo);
    const settledBefore = facilitator.relay.settled;
    facilitator.relay.holdSettle = true;
    const held = new Promise<void>((r) => {
      facilitator.relay.onHeld = r;
    });
    const lost = pay(first.url + path, header).catch(() => null); // its answer is lost with the process
    await held;
    await first.kill();
    assert.equal(await lost, null, 'the payer never got an answer');
    facilitator.relay.holdSettle = false;

    const restarted = await startApi();
    // Until the dead request's claim expires the payment is in use; then its kept result is
    // sold, on the chain's word. Bounded by the test's timeout, not by a guess of the time.
    let answer: Response;
    for (;;) {
      answer = await pay(restarted.url + path, header);
      if (answer.status !== 402) break;
      const body = await jsonOf(answer);
      assert.equal(refusalCode(body), 'payment_in_use', 'only "in use" while the claim lives');
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(answer.status, 200);
    const body = await answer.text();
    assert.notEqual(
      JSON.parse(body).request_id,
      answer.headers.get('x-request-id'),
      'the result made before the kill',
    );
    const again = await pay(restarted.url + path, header);
    assert.equal(await again.text(), body, 'kept as sold: the same response again');
    assert.equal(facilitator.relay.settled - settledBefore, 1, 'settled once');
    assert.equal(await s.usdcBalance(s.payTo), payToBefore + PRICE, 'charged once');
    const other = await pay(`${restarted.url}/scan/wallet/${OTHER_WALLET}`, header);
    assert.equal(other.status, 402);
    await restarted.kill();
  });
});
