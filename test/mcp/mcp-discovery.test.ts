/**
 * Where agents find /mcp: the discovery documents name it (additively: the contract's fields are
 * tested in test/server/contract.test.ts), and the endpoint answers as Streamable HTTP asks of a
 * stateless server (POST only; a CORS preflight allows it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listedPrice, PAID_ENDPOINTS } from '../../src/catalog.js';
import { LIST_TOOL, TOOL_ENDPOINTS, toolName } from '../../src/mcp/tools.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

describe('discovery of the MCP endpoint', () => {
  let stub: FacilitatorStub;
  let svc: TestService;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService({ FACILITATOR_URLS: stub.url });
  });
  after(async () => {
    await svc?.close();
    await stub?.close();
  });

  it('/.well-known/x402-discovery and / name /mcp and its tools with their prices', async () => {
    const discovery = await jsonOf(await fetch(`${svc.url}/.well-known/x402-discovery`));
    assert.equal(discovery.mcp.url, `${svc.url}/mcp`);
    assert.equal(discovery.mcp.transport, 'streamable-http');
    assert.deepEqual(
      discovery.mcp.tools.map((t: { name: string; price_usd: number }) => [t.name, t.price_usd]),
      [...TOOL_ENDPOINTS.map((e) => [toolName(e), listedPrice(e).usd]), [LIST_TOOL, 0]],
    );
    // The contract's own fields are still there, beside it.
    assert.equal(discovery.resources.length, PAID_ENDPOINTS.length);
    const root = await jsonOf(await fetch(`${svc.url}/`));
    assert.equal(root.links.mcp, `${svc.url}/mcp`);
  });

  it('/llms.txt has an MCP section naming every tool with its price', async () => {
    const text = await (await fetch(`${svc.url}/llms.txt`)).text();
    assert.ok(text.includes(`[MCP server](${svc.url}/mcp)`), text);
    for (const e of TOOL_ENDPOINTS) {
      // A price per item varies by kind: the tool is listed from its cheapest item.
      const from = listedPrice(e).per === 'item' ? 'from ' : '';
      assert.ok(text.includes(`${toolName(e)} ${from}${listedPrice(e).usd.toFixed(2)} USDC`), text);
    }
    assert.ok(text.includes('watch_subject 0.01 USDC per hour'), text);
    assert.ok(text.includes('scan_batch from 0.02 USDC per item'), text);
    assert.ok(text.includes('simulate_tx 0.05 USDC'), text);
    assert.ok(text.includes('_meta["x402/payment"]'), text);
  });

  it('tells hosts what each tool does: a scan only reads; watch_subject creates a paid watch each call', async () => {
    const mcp = new Client({ name: 'annotations-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
    const { tools } = await mcp.listTools();
    await mcp.close();
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    const reads = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: true };
    for (const name of [
      'scan_pumpfun',
      'scan_token',
      'scan_wallet',
      'verify_tx',
      'scan_program',
      'simulate_tx',
      'scan_batch',
    ])
      assert.deepEqual(annotations[name], reads, name);
    assert.deepEqual(annotations.watch_subject, {
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
  });

  it('/mcp takes POST only (stateless: no SSE stream, no session), and a browser may POST to it', async () => {
    const get = await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /\bPOST\b/);
    const preflight = await fetch(`${svc.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Mcp-Protocol-Version/);
    // A body that is no JSON-RPC is refused by the transport, not with a crash.
    const junk = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"not":"json-rpc"',
    });
    assert.equal(junk.status, 400);
    assert.equal((await jsonOf(junk)).error.code, -32700);
  });
});
