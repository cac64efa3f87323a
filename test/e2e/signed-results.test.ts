/**
 * Signed results, checked as an agent would: every paid 200 — a GET scan, POST /simulate/tx, a
 * replay of a stored result, an MCP tool result — carries an Ed25519 signature of its exact body
 * bytes that verifies against the key published at /.well-known/jwks.json (WebCrypto and
 * node:crypto, nothing of the service's own code); a body changed by one byte does not verify.
 * The key stays the same across a restart on one STATE_DIR, two processes started together on
 * one STATE_DIR publish the same key, and a bad SIGNING_KEY_FILE stops the start with exit 2.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { startApiProcess } from '../helpers/api-process.js';
import { type PaidSandbox, simulationsOn, startPaidSandbox } from '../helpers/paid-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const execute = promisify(execFile);

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

/** The published keys, by id, as an agent fetches them. */
async function publishedKeys(url: string): Promise<Map<string, Jwk>> {
  const res = await fetch(`${url}/.well-known/jwks.json`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/jwk-set\+json/);
  const { keys } = (await res.json()) as { keys: Jwk[] };
  return new Map(keys.map((k) => [k.kid, k]));
}

/** `ed25519 keyid=<kid>; sig=<base64>` read apart. */
function parseSignature(header: string | null): { keyid: string; sig: string } {
  const match = /^ed25519 keyid=([A-Za-z0-9_-]+); sig=([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  assert.ok(match, `X-Signature: ${header}`);
  return { keyid: match[1]!, sig: match[2]! };
}

/** WebCrypto, as a browser or any runtime has it. */
async function verifiesWebCrypto(jwk: Jwk, sig: string, bytes: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify('Ed25519', key, Buffer.from(sig, 'base64'), bytes);
}

/** node:crypto, as a Node agent would. */
function verifiesNode(jwk: Jwk, sig: string, bytes: Uint8Array): boolean {
  const key = createPublicKey({ key: { ...jwk }, format: 'jwk' });
  return verify(null, bytes, key, Buffer.from(sig, 'base64'));
}

async function assertSigned(keys: Map<string, Jwk>, header: string | null, bytes: Uint8Array) {
  const { keyid, sig } = parseSignature(header);
  const jwk = keys.get(keyid);
  assert.ok(jwk, `key ${keyid} is published`);
  assert.equal(await verifiesWebCrypto(jwk, sig, bytes), true);
  assert.equal(verifiesNode(jwk, sig, bytes), true);
  const changed = Uint8Array.from(bytes);
  changed[changed.length >> 1]! ^= 0x01;
  assert.equal(await verifiesWebCrypto(jwk, sig, changed), false, 'one changed byte does not verify');
  assert.equal(verifiesNode(jwk, sig, changed), false);
}

describe('signed results', { timeout: 180_000 }, () => {
  let sandbox: PaidSandbox;
  let payments: x402Client;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    payments = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
  });
  after(async () => {
    await sandbox?.close();
  });

  it('is listed in the discovery documents', async () => {
    const root = (await (await fetch(`${sandbox.url}/`)).json()) as { links: Record<string, string> };
    assert.equal(root.links.signing_keys, `${sandbox.url}/.well-known/jwks.json`);
    const discovery = (await (await fetch(`${sandbox.url}/.well-known/x402-discovery`)).json()) as {
      links: Record<string, string>;
    };
    assert.equal(discovery.links.signing_keys, `${sandbox.url}/.well-known/jwks.json`);
    const llms = await (await fetch(`${sandbox.url}/llms.txt`)).text();
    assert.ok(llms.includes(`${sandbox.url}/.well-known/jwks.json`));
    const [jwk] = [...(await publishedKeys(sandbox.url)).values()];
    assert.deepEqual(
      { kty: jwk!.kty, crv: jwk!.crv },
      { kty: 'OKP', crv: 'Ed25519' },
      'a standard OKP Ed25519 JWK',
    );
  });

  it('a paid GET 200 verifies against the published key, and its replay carries the same signature', async () => {
    const keys = await publishedKeys(sandbox.url);
    const url = `${sandbox.url}/scan/token/${USDC_MINT}`;
    const offer = await fetch(url);
    assert.equal(offer.status, 402);
    assert.equal(offer.headers.get('x-signature'), null, 'a 402 is not signed');
    const required = decodePaymentRequiredHeader(offer.headers.get('payment-required')!) as PaymentRequired;
    const payment = await payments.createPaymentPayload(required);
    const headers = new x402HTTPClient(payments).encodePaymentSignatureHeader(payment);

    const paid = await fetch(url, { headers });
    const bytes = new Uint8Array(await paid.arrayBuffer());
    assert.equal(paid.status, 200, Buffer.from(bytes).toString());
    assert.ok(paid.headers.get('access-control-expose-headers')?.includes('X-Signature'));
    await assertSigned(keys, paid.headers.get('x-signature'), bytes);

    const replay = await fetch(url, { headers });
    const replayed = new Uint8Array(await replay.arrayBuffer());
    assert.equal(replay.status, 200);
    assert.deepEqual(replayed, bytes, 'the stored result');
    await assertSigned(keys, replay.headers.get('x-signature'), replayed);
    assert.equal(replay.headers.get('x-signature'), paid.headers.get('x-signature'));
  });

  it('a paid POST /simulate/tx 200 verifies', async () => {
    const simulations = await simulationsOn(sandbox);
    const transfer = simulations.find((s) => s.name === 'sim:usdc-transfer')!;
    const res = await wrapFetchWithPayment(fetch, payments)(`${sandbox.url}/simulate/tx`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ transaction: transfer.transaction }),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.status, 200, Buffer.from(bytes).toString());
    await assertSigned(await publishedKeys(sandbox.url), res.headers.get('x-signature'), bytes);
  });

  it('an MCP tool result carries the signature of content[0].text in _meta', async () => {
    const mcp = new Client({ name: 'signed-results-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
    try {
      const call = (payment?: unknown) =>
        mcp.callTool({
          name: 'scan_token',
          arguments: { mint: USDC_MINT },
          ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
        }) as Promise<CallToolResult>;
      const offer = await call();
      assert.equal(offer._meta?.['risk-scan/signature'], undefined);
      const payment = await payments.createPaymentPayload(
        offer.structuredContent as unknown as PaymentRequired,
      );
      const paid = await call(payment);
      assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
      const signature = paid._meta?.['risk-scan/signature'] as { alg: string; keyid: string; sig: string };
      assert.equal(signature.alg, 'ed25519');
      const text = (paid.content as { text: string }[])[0]!.text;
      await assertSigned(
        await publishedKeys(sandbox.url),
        `ed25519 keyid=${signature.keyid}; sig=${signature.sig}`,
        Buffer.from(text, 'utf8'),
      );
    } finally {
      await mcp.close();
    }
  });

  it('keeps its key across a restart, and two processes started together on one STATE_DIR publish the same key', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'signed-results-state-'));
    const env = {
      RISK_SCAN_MODE: 'mainnet',
      PAY_TO: sandbox.payTo,
      SOLANA_RPC_URL: sandbox.rpcServer.url,
      FACILITATOR_URLS: sandbox.facilitators[0]!.url,
      STATE_DIR: stateDir,
      VERIFIED_TOKENS_URL: 'none',
    };
    try {
      const both = await Promise.all([startApiProcess(env), startApiProcess(env)]);
      const published = await Promise.all(
        both.map(async (api) => [...(await publishedKeys(api.url)).keys()]),
      );
      await Promise.all(both.map((api) => api.stop()));
      assert.equal(published[0]!.length, 1);
      assert.deepEqual(published[1], published[0]);
      const restarted = await startApiProcess(env);
      const again = [...(await publishedKeys(restarted.url)).keys()];
      await restarted.stop();
      assert.deepEqual(again, published[0]);
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });

  it('a bad SIGNING_KEY_FILE stops the start: exit 2, one line naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'signed-results-bad-key-'));
    try {
      const file = join(dir, 'key.pem');
      await writeFile(file, 'not a key');
      const ended = await execute(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        timeout: 30_000,
        env: {
          PATH: process.env.PATH,
          RISK_SCAN_MODE: 'mainnet',
          PAY_TO: sandbox.payTo,
          FACILITATOR_URLS: 'http://127.0.0.1:9',
          LOG_LEVEL: 'silent',
          PORT: '0',
          HOST: '127.0.0.1',
          STATE_DIR: join(dir, 'state'),
          SIGNING_KEY_FILE: file,
        },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      assert.equal(ended.code, 2, ended.stderr);
      assert.equal(ended.stderr.trim().split('\n').length, 1, ended.stderr);
      assert.match(ended.stderr.trim(), /^SIGNING_KEY_FILE .*key\.pem cannot be used: /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
