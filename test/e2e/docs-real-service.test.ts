/**
 * The real service's /docs in headless Chromium: a visitor first sees the service's name, what
 * it is and how to pay, then the ways in (MCP among them); it renders the service's own OpenAPI
 * document, shows the paid operations, and every asset comes from the service itself.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { listedPrice, PAID_ENDPOINTS, type PaidEndpoint, unitPriceText } from '../../src/catalog.js';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../../src/identity.js';
import { LIST_TOOL, TOOL_ENDPOINTS, toolName } from '../../src/mcp/tools.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { unusedPort } from '../helpers/ports.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found (installed by .ci/install-system-packages.sh)`;

const PROGRAM = 'MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD';

/** "Try it out" on the program scan: the response the page's own call received. */
async function tryProgramScan(page: Page) {
  const op = page.locator(`.opblock:has(.opblock-summary-path[data-path="/scan/program/{id}"])`);
  await op.locator('.opblock-summary-control').waitFor({ state: 'visible', timeout: 10_000 });
  await op.locator('.opblock-summary-control').click();
  await op.getByRole('button', { name: 'Try it out' }).click();
  await op.locator('input[placeholder="id"]').fill(PROGRAM);
  const call = page.waitForResponse((r) => r.url().includes('/scan/program/'), { timeout: 10_000 });
  await op.getByRole('button', { name: 'Execute' }).click();
  return call;
}

/** How a price reads on the page: '0.30 USDC', or per item the range over kinds. */
const priceWords = (endpoint: PaidEndpoint) =>
  listedPrice(endpoint).per === 'item'
    ? `${unitPriceText(endpoint.price)} USDC per item`
    : `${listedPrice(endpoint).usd.toFixed(2)} USDC`;

describe('the service /docs page in Chromium', { skip }, () => {
  let stub: FacilitatorStub;
  let svc: TestService;
  let browser: Browser;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService({ FACILITATOR_URLS: stub.url });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    await stub?.close();
  });

  it('opens with the title, what the service is and how to pay; the MCP block comes after them, beside the other ways in', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${svc.url}/docs`, { waitUntil: 'load' });
    // Once the reference has rendered, as a visitor sees the page.
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 10_000 });

    // The first visible text, top to bottom: the title, then what it is, then how to pay.
    const topTexts = await page.evaluate(() => {
      // The browser's own globals (this file is type-checked without the DOM library).
      const document = (globalThis as any).document;
      const SHOW_TEXT = 4;
      const seen: { text: string; top: number }[] = [];
      const walker = document.createTreeWalker(document.body, SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        const range = document.createRange();
        range.selectNodeContents(node);
        const box = range.getBoundingClientRect();
        if (text !== '' && box.width > 0 && box.height > 0) seen.push({ text, top: box.top });
      }
      return seen.sort((a, b) => a.top - b.top).map((t) => t.text);
    });
    assert.deepEqual(
      topTexts.slice(0, 3),
      [SERVICE_NAME, SERVICE_DESCRIPTION, 'How to pay'],
      topTexts.join(' | '),
    );

    const box = async (selector: string) => {
      const found = await page.locator(selector).first().boundingBox();
      assert.ok(found, `${selector} is visible`);
      return found;
    };
    const [title, what, paying, waysIn, mcp, reference] = [
      await box('#title'),
      await box('#what'),
      await box('#paying h2'),
      await box('#ways-in'),
      await box('#mcp'),
      await box('.opblock'),
    ];
    assert.ok(
      title.y < what.y && what.y < paying.y && paying.y < mcp.y,
      'title, what it is, paying, then MCP',
    );
    assert.ok(paying.y + paying.height <= 900, 'how to pay starts in the first screen, unscrolled');
    assert.ok(waysIn.y < mcp.y && mcp.y < reference.y, 'MCP is one of the ways in, above the reference');
    assert.equal(
      await page.locator('.information-container .title').count(),
      0,
      'the title is not shown twice',
    );

    const ways = ((await page.locator('#ways-in').textContent()) ?? '').replace(/\s+/g, ' ');
    for (const name of [
      '@solana-risk-scan/client',
      '@solana-risk-scan/solana-agent-kit',
      '@solana-risk-scan/goat',
      '@solana-risk-scan/elizaos',
      '@solana-risk-scan/ai-sdk',
      'x402-fetch',
      'X402_V1_NETWORK=solana',
      'MCP: POST /mcp',
    ]) {
      assert.ok(ways.includes(name), `${name} among the ways in: ${ways}`);
    }
    const elsewhere = requests.filter((url) => new URL(url).origin !== svc.url);
    assert.deepEqual(elsewhere, [], 'offline: every request stayed on the service');
    await page.close();
  });

  it('shows every paid operation and the MCP endpoint with its tools, and "try it out" on one gets the 402 offer', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${svc.url}/docs`, { waitUntil: 'load' });
    for (const endpoint of PAID_ENDPOINTS) {
      const path = page.locator(`.opblock-summary-path[data-path="${endpoint.path}"]`);
      await path.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal((await path.textContent())?.replace(/\u200b/g, ''), endpoint.path);
      const summary = await page
        .locator(
          `.opblock:has(.opblock-summary-path[data-path="${endpoint.path}"]) .opblock-summary-description`,
        )
        .textContent();
      assert.ok(summary?.includes(priceWords(endpoint)), `${endpoint.path} shows its price`);
    }

    // The MCP endpoint and each of its tools with its price.
    const mcp = page.locator('#mcp');
    await mcp.waitFor({ state: 'visible', timeout: 10_000 });
    const listed = ((await mcp.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.ok(listed.includes('MCP: POST /mcp'), listed);
    for (const endpoint of TOOL_ENDPOINTS) {
      assert.ok(
        listed.includes(`${toolName(endpoint)} — ${endpoint.summary} — ${priceWords(endpoint)}`),
        listed,
      );
    }
    assert.ok(listed.includes(`${LIST_TOOL} — Endpoints and prices — free`), listed);

    const response = await tryProgramScan(page);
    assert.equal(response.url(), `${svc.url}/scan/program/${PROGRAM}`);
    assert.equal(response.status(), 402);
    assert.equal((await response.json()).accepts[0].maxAmountRequired, '1000000');

    const elsewhere = requests.filter((url) => new URL(url).origin !== svc.url);
    assert.deepEqual(elsewhere, [], 'every request stayed on the service');
    assert.ok(requests.includes(`${svc.url}/openapi.json`));
  });

  it('behind a proxy, "try it out" reaches PUBLIC_BASE_URL even when the page was opened at another address', async () => {
    // The service reached as localhost, its PUBLIC_BASE_URL naming 127.0.0.1: two origins, one
    // server, as when a person opens /docs on the service behind the proxy.
    const port = await unusedPort();
    const publicBase = `http://127.0.0.1:${port}`;
    const proxied = await startTestService({
      FACILITATOR_URLS: stub.url,
      PORT: String(port),
      PUBLIC_BASE_URL: publicBase,
    });
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });
    try {
      await page.goto(`http://localhost:${port}/docs`, { waitUntil: 'load' });
      const response = await tryProgramScan(page);
      assert.equal(response.url(), `${publicBase}/scan/program/${PROGRAM}`);
      assert.equal(response.status(), 402);
      assert.equal((await response.json()).accepts[0].resource, `${publicBase}/scan/program/${PROGRAM}`);
      assert.deepEqual(blocked, [], 'the page broke no Content-Security-Policy rule');
    } finally {
      await page.close();
      await proxied.close();
    }
  });
});
