/**
 * `evidence.decision`, read as an agent reads it: the bucket table comes from /openapi.json's
 * `x-risk-decision` (and is the same in every discovery document), and every paid 200 that is a
 * ScanResult — each GET scan, POST /simulate/tx, a second payment answered from the cache, the
 * replay of a payment, an MCP tool result — carries the decision that table gives its risk_score,
 * inside the body its signature covers. Paid end to end with the official x402 client.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { getBase58Decoder } from '@solana/kit';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { TOKEN_PROGRAM } from '../../src/solana/programs.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { type PaidSandbox, simulationsOn, startPaidSandbox } from '../helpers/paid-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

interface PublishedBucket {
  decision: string;
  min_score: number;
}
interface PublishedTable {
  field: string;
  score: string;
  buckets: PublishedBucket[];
}

/** The decision the published table gives a score: the bucket with the highest min_score ≤ score. */
function publishedDecision(table: PublishedTable, score: number): string {
  const reached = table.buckets.filter((b) => score >= b.min_score);
  assert.ok(reached.length > 0, `score ${score} falls in a bucket`);
  return reached.reduce((a, b) => (b.min_score > a.min_score ? b : a)).decision;
}

async function json(url: string): Promise<any> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return res.json();
}

describe('evidence.decision on every paid 200, as /openapi.json publishes it', { timeout: 300_000 }, () => {
  let sandbox: PaidSandbox;
  let pay: typeof fetch;
  let payments: x402Client;
  let table: PublishedTable;
  let keys: Map<string, Record<string, string>>;

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    payments = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
    pay = wrapFetchWithPayment(fetch, payments);
    table = (await json(`${sandbox.url}/openapi.json`))['x-risk-decision'];
    const jwks = await json(`${sandbox.url}/.well-known/jwks.json`);
    keys = new Map(jwks.keys.map((k: Record<string, string>) => [k.kid, k]));
  });
  after(async () => {
    await sandbox?.close();
  });

  /** The body's decision agrees with the published table, and the signed bytes are the ones read. */
  const assertDecided = (bytes: Buffer, signatureHeader: string | null) => {
    const body = JSON.parse(bytes.toString('utf8'));
    assert.equal(body.evidence.decision, publishedDecision(table, body.risk_score), bytes.toString());
    const [, keyid, sig] = /^ed25519 keyid=(\S+); sig=(\S+)$/.exec(signatureHeader ?? '') ?? [];
    const key = createPublicKey({ key: { ...keys.get(keyid!)! }, format: 'jwk' });
    assert.equal(verify(null, bytes, key, Buffer.from(sig!, 'base64')), true, 'signed with decision');
    return body;
  };

  const paid = async (path: string, init?: RequestInit) => {
    const before = await sandbox.balances();
    const res = await pay(sandbox.url + path, init);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(res.status, 200, bytes.toString());
    assert.ok((await sandbox.balances()).payer < before.payer, 'paid');
    return assertDecided(bytes, res.headers.get('x-signature'));
  };

  it('publishes one table: four buckets from 0, in /openapi.json and every discovery document', async () => {
    assert.equal(table.field, 'evidence.decision');
    assert.equal(table.score, 'risk_score');
    assert.deepEqual(
      table.buckets.map((b) => [b.decision, b.min_score]),
      [
        ['proceed', 0],
        ['caution', 0.2],
        ['avoid', 0.5],
        ['do_not_interact', 0.8],
      ],
    );
    const discovery = await json(`${sandbox.url}/.well-known/x402-discovery`);
    assert.deepEqual(discovery.risk_decision, table);
    const card = await json(`${sandbox.url}/.well-known/agent-card.json`);
    const extension = card.capabilities.extensions.find((e: { uri: string }) =>
      e.uri.endsWith('/openapi.json#x-risk-decision'),
    );
    assert.deepEqual(extension?.params, table);
    const llms = await (await fetch(`${sandbox.url}/llms.txt`)).text();
    for (const [i, b] of table.buckets.entries()) {
      const next = table.buckets[i + 1];
      const range = next ? `${b.min_score} to below ${next.min_score}` : `${b.min_score} to 1`;
      assert.ok(llms.includes(`- \`${b.decision}\`: risk_score ${range} (`), `${b.decision} in llms.txt`);
    }
  });

  it('every GET scan, fresh and then from the cache', async () => {
    const unknownTx = getBase58Decoder().decode(new Uint8Array(64).fill(7));
    const paths = [
      `/scan/token/${USDC_MINT}`,
      `/scan/pumpfun/${USDC_MINT}`,
      `/scan/wallet/${sandbox.payer.address}`,
      `/verify/tx/${unknownTx}`,
      `/scan/program/${TOKEN_PROGRAM}`,
    ];
    for (const path of paths) await paid(path);
    const again = await paid(`/scan/token/${USDC_MINT}`);
    assert.equal(again.cached, true, 'a second payment for the same subject is answered from the cache');
  });

  it('POST /simulate/tx, for every seeded simulation, reaching more than one bucket', async () => {
    const seen = new Set<string>();
    for (const simulation of await simulationsOn(sandbox)) {
      const body = await paid('/simulate/tx', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ transaction: simulation.transaction }),
      });
      seen.add(body.evidence.decision);
    }
    assert.ok(seen.size > 1, `decisions seen: ${[...seen]}`);
  });

  it('the replay of a payment gives the same decided body, and so does an MCP tool result and its replay', async () => {
    const url = `${sandbox.url}/scan/wallet/${sandbox.usdcAuthority.address}`;
    const required = decodePaymentRequiredHeader((await fetch(url)).headers.get('payment-required')!);
    const headers = new x402HTTPClient(payments).encodePaymentSignatureHeader(
      await payments.createPaymentPayload(required as PaymentRequired),
    );
    const first = await fetch(url, { headers });
    const firstBytes = Buffer.from(await first.arrayBuffer());
    assert.equal(first.status, 200, firstBytes.toString());
    assertDecided(firstBytes, first.headers.get('x-signature'));
    const replay = await fetch(url, { headers });
    const replayBytes = Buffer.from(await replay.arrayBuffer());
    assert.deepEqual(replayBytes, firstBytes, 'the stored body');
    assertDecided(replayBytes, replay.headers.get('x-signature'));

    const mcp = new Client({ name: 'decision-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
    try {
      const call = (payment?: unknown) =>
        mcp.callTool({
          name: 'scan_token',
          arguments: { mint: USDC_MINT },
          ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
        }) as Promise<CallToolResult>;
      const offer = await call();
      const payment = await payments.createPaymentPayload(
        offer.structuredContent as unknown as PaymentRequired,
      );
      const result = await call(payment);
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const text = (result.content as { text: string }[])[0]!.text;
      const signature = result._meta?.['risk-scan/signature'] as { keyid: string; sig: string };
      const body = assertDecided(
        Buffer.from(text, 'utf8'),
        `ed25519 keyid=${signature.keyid}; sig=${signature.sig}`,
      );
      assert.deepEqual(result.structuredContent, body, 'structured content carries it too');
      const replay = await call(payment);
      assert.equal((replay.content as { text: string }[])[0]!.text, text, 'the replay is the same body');
    } finally {
      await mcp.close();
    }
  });
});
