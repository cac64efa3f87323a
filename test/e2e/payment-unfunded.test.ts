/**
 * With parallel verify on (the default), a payment the facilitator will refuse must not cost a
 * scan: 100 payments signed by keys that hold no USDC, each for another subject, run no scanner
 * and cost at most one RPC read each (the real wallet scanner) (the look at the payer's funds).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, generateKeyPairSigner } from '@solana/kit';
import { SCANNERS } from '../../src/scans/registry.js';
import type { Scanner } from '../../src/scans/scanner.js';
import { selling } from '../../src/service/index.js';
import { startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, offerOf, pay, v2Payment } from '../helpers/payments.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { refusalCode } from '../helpers/reason-code.js';
import { countingTransport } from '../helpers/rpc-transports.js';
import { jsonOf } from '../helpers/service.js';

const PAYMENTS = 100;

describe('payments from unfunded keys', () => {
  it(`${PAYMENTS} of them, each for a new subject, run no scan and cost at most one RPC read each (the real wallet scanner)`, async (t) => {
    let scans = 0;
    const counting: Scanner = async (subject, ctx) => {
      scans++;
      return SCANNERS.wallet(subject, ctx);
    };
    let counter: ReturnType<typeof countingTransport> | undefined;
    const s = await startPaidSandbox({}, { mode: selling(probeScanners(counting)) });
    try {
      counter = countingTransport(createDefaultRpcTransport({ url: s.rpcServer.url }));
      const instance = await s.startInstance({ rpc: createSolanaRpcFromTransport(counter.transport) });
      const unfunded = await Promise.all(Array.from({ length: PAYMENTS }, () => generateKeyPairSigner()));
      const offer = await offerOf(`${instance.url}/scan/wallet/${s.payer.address}`);
      const calls = await Promise.all(
        unfunded.map(async (payer) => {
          const path = `/scan/wallet/${payer.address}`;
          const requirements = { ...offer.v2 };
          const payment = await v2Payment(payer, s.rpcServer.url, requirements, instance.url + path);
          return { url: instance.url + path, header: encodeHeader(payment) };
        }),
      );
      counter.reset();
      for (const call of calls) {
        const res = await pay(call.url, call.header);
        const body = await jsonOf(res);
        assert.equal(res.status, 402, JSON.stringify(body));
        assert.equal(refusalCode(body), 'payment_refused');
      }
      t.diagnostic(`${PAYMENTS} unfunded payments: ${counter.calls.length} RPC calls, ${scans} scans`);
      assert.equal(scans, 0, 'no scan ran for a payment that failed verification');
      assert.ok(counter.calls.length <= PAYMENTS, `${counter.calls.length} RPC calls`);
    } finally {
      await s.close();
    }
  });
});
