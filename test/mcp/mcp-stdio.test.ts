/**
 * `risk-scan mcp`, started as a host starts it (its own process, stdio) by the MCP SDK's
 * StdioClientTransport, paying the paid sandbox's API from a keypair file: the same tools, a paid
 * ScanResult with its settlement, and nothing paid for a call over --max-usd, past --budget-usd,
 * or with a malformed subject.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Address } from '@solana/kit';
import { atomicPrice, GET_ENDPOINTS, orderPriceUsd, POST_ENDPOINTS, priceText } from '../../src/catalog.js';
import { generateKeypairWithBytes, writeKeypairFile } from '../../src/client/keypair-file.js';
import { ScanResultSchema } from '../../src/contract/schemas.js';
import { LIST_TOOL, TOOL_ENDPOINTS, toolName } from '../../src/mcp/tools.js';
import type { SimulationScenario } from '../../src/sandbox/scenarios/manifest.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { tempDir } from '../cli/run-cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { type PaidSandbox, simulationsOn, startPaidSandbox } from '../helpers/paid-sandbox.js';

const TOKEN_PRICE = BigInt(atomicPrice(GET_ENDPOINTS.find((e) => e.id === 'token')!.price.usd));
const SIMULATE_PRICE = BigInt(atomicPrice(orderPriceUsd(POST_ENDPOINTS.find((e) => e.id === 'simulate')!)));
const FUNDS = 5_000_000n;

const errorOf = (result: CallToolResult) => {
  assert.equal(result.isError, true, JSON.stringify(result.content));
  return result.structuredContent as { error: string; message: string };
};

/**
 * A new funded payer's `risk-scan mcp` on stdio, paying the API at `apiUrl` with --max-usd and
 * --budget-usd 0.5; nothing from the checkout is read (no sandbox manifest).
 */
async function startPayingMcp(sandbox: PaidSandbox, apiUrl: string, onStderr?: (text: string) => void) {
  const dir = tempDir('mcp-stdio-');
  const keypair = await generateKeypairWithBytes();
  await writeKeypairFile(join(dir, 'payer.json'), keypair);
  await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [{ owner: keypair.signer.address, amount: FUNDS }]);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/risk-scan.mjs', 'mcp', '--keypair', join(dir, 'payer.json'), '--url', apiUrl].concat([
      '--rpc',
      sandbox.rpcServer.url,
      '--max-usd',
      '0.5',
      '--budget-usd',
      '0.5',
    ]),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SANDBOX_DIR: join(dir, 'none'),
      RISK_SCAN_FROM_SOURCE: '1',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => onStderr?.(chunk.toString()));
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, payer: keypair.signer.address };
}

describe('risk-scan mcp: an MCP server on stdio that pays from a keypair', () => {
  let sandbox: PaidSandbox;
  let payer: Address;
  let mcp: Client;
  let stderr = '';
  let simulations: SimulationScenario[];

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    simulations = await simulationsOn(sandbox);
    ({ client: mcp, payer } = await startPayingMcp(sandbox, sandbox.url, (text) => {
      stderr += text;
    }));
  });
  after(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  it('lists the same tools as the API, each with its price', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_ENDPOINTS.map(toolName), LIST_TOOL].sort());
    for (const endpoint of TOOL_ENDPOINTS) {
      const tool = tools.find((t) => t.name === toolName(endpoint))!;
      assert.ok(tool.description?.includes(priceText(endpoint)), tool.name);
      const required = endpoint.method === 'GET' ? [endpoint.param.name] : endpoint.body.schema.required;
      assert.deepEqual(tool.inputSchema.required, required);
    }
  });

  it('pays scan_token from the keypair: a ScanResult, its settlement, and exactly the price moved', async () => {
    const payToBefore = await sandbox.usdcBalance(sandbox.payTo);
    const result = (await mcp.callTool({
      name: 'scan_token',
      arguments: { mint: USDC_MINT },
    })) as CallToolResult;
    assert.notEqual(result.isError, true, `${JSON.stringify(result.content)}\n${stderr}`);
    const scan = ScanResultSchema.parse(result.structuredContent);
    assert.match(scan.request_id ?? '', /^[0-9a-f-]{36}$/);
    const receipt = result._meta?.['x402/payment-response'] as {
      success: boolean;
      payer: string;
      transaction: string;
    };
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer, payer);
    assert.ok(sandbox.chain.transaction(receipt.transaction), 'the settlement is on chain');
    assert.equal(await sandbox.usdcBalance(payer), FUNDS - TOKEN_PRICE);
    assert.equal(await sandbox.usdcBalance(sandbox.payTo), payToBefore + TOKEN_PRICE);
  });

  it('a paid answer lost on the way back (a proxy’s 500 after the API settled) counts against --budget-usd', async () => {
    // The paid request (the second GET of the path: the first is the unpaid offer) reaches the
    // API, which settles; the proxy then replaces its 200 with a 500 that is not the API's own error.
    const proxy = await startFaultProxy(sandbox.url, ({ method, n }) =>
      method.startsWith('GET /scan/') && n >= 2 ? { kind: '500', afterForwarding: true } : { kind: 'pass' },
    );
    const { client: lost, payer: lostPayer } = await startPayingMcp(sandbox, proxy.url);
    try {
      const first = errorOf(
        (await lost.callTool({ name: 'scan_token', arguments: { mint: USDC_MINT } })) as CallToolResult,
      );
      assert.equal(first.error, 'call_failed');
      // The chain says the payment was taken: the session counts it.
      assert.equal(await sandbox.usdcBalance(lostPayer), FUNDS - TOKEN_PRICE);
      const second = errorOf(
        (await lost.callTool({ name: 'scan_token', arguments: { mint: USDC_MINT } })) as CallToolResult,
      );
      assert.equal(second.error, 'budget_spent');
      assert.match(second.message, /this session has 0\.2 USDC left of --budget-usd; nothing was paid/);
      assert.equal(await sandbox.usdcBalance(lostPayer), FUNDS - TOKEN_PRICE);
    } finally {
      await lost.close();
      await proxy.close();
    }
  });

  it('refuses without paying: a call over --max-usd, a malformed subject, a call past --budget-usd', async () => {
    const before = await sandbox.usdcBalance(payer);
    const program = await mcp.callTool({ name: 'scan_program', arguments: { id: sandbox.payTo } });
    assert.match(
      errorOf(program as CallToolResult).message,
      /costs 1 USDC, more than --max-usd 0\.5; nothing was paid/,
    );

    const bad = errorOf(
      (await mcp.callTool({ name: 'scan_token', arguments: { mint: '../../health' } })) as CallToolResult,
    );
    assert.equal(bad.error, 'invalid_input');
    assert.match(bad.message, /^mint must be a base58 Solana address/);

    // 0.30 of the 0.50 budget is spent: a second token scan (0.30) would go past it.
    const spent = errorOf(
      (await mcp.callTool({ name: 'scan_token', arguments: { mint: USDC_MINT } })) as CallToolResult,
    );
    assert.equal(spent.error, 'budget_spent');
    assert.match(
      spent.message,
      /costs 0\.3 USDC and this session has 0\.2 USDC left of --budget-usd; nothing was paid/,
    );

    // The free tool still answers.
    const list = await mcp.callTool({ name: LIST_TOOL });
    assert.notEqual(list.isError, true);
    assert.equal(await sandbox.usdcBalance(payer), before);
  });

  it('pays simulate_tx by POSTing the transaction: exactly its token changes, and a malformed one refused unpaid', async () => {
    const before = await sandbox.usdcBalance(payer);
    const bad = errorOf(
      (await mcp.callTool({ name: 'simulate_tx', arguments: { transaction: 'AAAA' } })) as CallToolResult,
    );
    assert.equal(bad.error, 'invalid_input');
    assert.match(bad.message, /^transaction is not a transaction: .*; nothing was paid$/);
    assert.equal(await sandbox.usdcBalance(payer), before);

    const s = simulations.find((x) => x.name === 'sim:usdc-transfer')!;
    const result = (await mcp.callTool({
      name: 'simulate_tx',
      arguments: { transaction: s.transaction },
    })) as CallToolResult;
    assert.notEqual(result.isError, true, `${JSON.stringify(result.content)}\n${stderr}`);
    const scan = ScanResultSchema.parse(result.structuredContent);
    const changes = (
      scan.evidence as { token_changes: { owner: string; mint: string; change: string }[] }
    ).token_changes.map(({ owner, mint, change }) => ({ owner, mint, change }));
    const byChange = (a: { change: string }, b: { change: string }) => a.change.localeCompare(b.change);
    assert.deepEqual(changes.sort(byChange), [...s.expect.tokenChanges!].sort(byChange));
    assert.equal(
      (result._meta?.['x402/payment-response'] as { success?: boolean } | undefined)?.success,
      true,
    );
    assert.equal(await sandbox.usdcBalance(payer), before - SIMULATE_PRICE);
  });
});
