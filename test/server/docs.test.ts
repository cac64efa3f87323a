/**
 * GET /docs: the Swagger UI reference, served only from this service.
 * HTTP-level checks run anywhere; the browser checks drive real headless Chromium and are
 * skipped (with a message) only when /usr/bin/chromium is absent (CI installs it via
 * .ci/install-chromium.sh).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { docsIntro } from '../../src/server/docs/intro.js';
import { createDocsRoutes } from '../../src/server/docs/routes.js';

const CHROMIUM = '/usr/bin/chromium';
const TITLE = 'Solana Risk Scan — API reference';
const EXPECTED_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";
const EXAMPLE_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** The five paid operations, as the service documents them. */
const OPERATIONS = [
  { path: '/scan/pumpfun/{mint}', operationId: 'scanPumpfun', param: 'mint', summary: 'Pump.fun token risk' },
  { path: '/scan/token/{mint}', operationId: 'scanToken', param: 'mint', summary: 'SPL token risk' },
  { path: '/scan/wallet/{address}', operationId: 'scanWallet', param: 'address', summary: 'Wallet risk' },
  {
    path: '/verify/tx/{signature}',
    operationId: 'verifyTx',
    param: 'signature',
    summary: 'Transaction check',
  },
  { path: '/scan/program/{id}', operationId: 'scanProgram', param: 'id', summary: 'Program risk' },
] as const;

const RISK_RESULT = {
  risk_score: 0.12,
  flags: ['MINT_AUTHORITY_ACTIVE'],
  confidence: 0.9,
  summary: 'Low risk.',
  recommendation: 'Proceed.',
};

function openApiDocument() {
  const paths = Object.fromEntries(
    OPERATIONS.map((op) => [
      op.path,
      {
        get: {
          operationId: op.operationId,
          tags: ['scan'],
          summary: op.summary,
          parameters: [
            {
              name: op.param,
              in: 'path',
              required: true,
              description: 'Base58 Solana value.',
              schema: { type: 'string', minLength: 32, maxLength: 88, pattern: '^[1-9A-HJ-NP-Za-km-z]+$' },
              example: EXAMPLE_MINT,
            },
          ],
          responses: {
            '200': {
              description: 'The scan result.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/RiskResult' } } },
            },
            '402': {
              description: 'Payment required (x402).',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Solana Risk Scan', version: '0.0.0', description: 'Pay-per-call Solana risk scanner.' },
    // Relative, so "try it out" calls the origin the page was loaded from.
    servers: [{ url: '/' }],
    tags: [{ name: 'scan', description: 'Paid risk scans' }],
    paths,
    components: {
      schemas: {
        RiskResult: {
          type: 'object',
          required: ['risk_score', 'flags', 'confidence', 'summary', 'recommendation'],
          properties: {
            risk_score: { type: 'number', minimum: 0, maximum: 1, examples: [0.12] },
            flags: { type: 'array', items: { type: 'string' } },
            confidence: { type: 'number', minimum: 0, maximum: 1 },
            summary: { type: 'string' },
            recommendation: { type: 'string' },
            cached: { type: ['boolean', 'null'] },
          },
        },
      },
    },
  };
}

function buildTestApp(): Hono {
  const app = new Hono();
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  // A stand-in for one paid endpoint, so "try it out" has something same-origin to call.
  app.get('/scan/token/:mint', (c) => c.json({ ...RISK_RESULT, mint: c.req.param('mint') }));
  app.route('/', createDocsRoutes({ openapiPath: '/openapi.json', title: TITLE }));
  return app;
}

let server: Server;
let origin: string;

before(async () => {
  const app = buildTestApp();
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(s as Server),
    ) as Server;
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Asset URLs the page links to, in document order. */
function assetUrlsOf(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('GET /docs over HTTP', () => {
  it("lets the page connect to PUBLIC_BASE_URL's origin, and to no other, when one is set", async () => {
    const routes = createDocsRoutes({
      openapiPath: '/openapi.json',
      title: TITLE,
      publicBaseUrl: 'https://scan.example.com/risk',
    });
    const csp = (await routes.request('/docs')).headers.get('content-security-policy') ?? '';
    const connect = csp.split('; ').filter((d) => d.startsWith('connect-src'));
    assert.deepEqual(connect, ["connect-src 'self' https://scan.example.com"]);
    assert.ok(csp.includes("script-src 'self';"), 'scripts stay same-origin');
  });

  it('serves the page with a same-origin-only CSP and no inline script', async () => {
    const res = await fetch(`${origin}/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/i);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.ok(csp.startsWith(EXPECTED_CSP), csp);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const html = await res.text();
    assert.match(html, /<title>Solana Risk Scan — API reference<\/title>/);
    assert.match(html, /data-openapi-url="\/openapi.json"/);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'every <script> has a src');
    assert.doesNotMatch(html, /https?:\/\//, 'no absolute URL in the page');
    assert.equal(assetUrlsOf(html).length, 6);
  });

  it('redirects /docs/ to /docs, keeping the query', async () => {
    const res = await fetch(`${origin}/docs/?x=1`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/docs?x=1');
  });

  it('serves every linked asset with its type, an immutable cache and an ETag', async () => {
    const html = await (await fetch(`${origin}/docs`)).text();
    const expectedTypes: Record<string, RegExp> = {
      css: /^text\/css/,
      js: /^text\/javascript/,
      png: /^image\/png$/,
    };
    for (const url of assetUrlsOf(html)) {
      assert.match(url, /\.[0-9a-f]{16}\.(css|js|png)$/, 'content hash in the name');
      const res = await fetch(origin + url, { headers: { 'Accept-Encoding': 'identity' } });
      assert.equal(res.status, 200, url);
      const extension = url.split('.').pop()!;
      assert.match(res.headers.get('content-type') ?? '', expectedTypes[extension]!, url);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.match(res.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const html = await (await fetch(`${origin}/docs`)).text();
    const css = assetUrlsOf(html).find((u) => u.includes('/swagger-ui.'))!;
    const first = await fetch(origin + css, { headers: { 'Accept-Encoding': 'identity' } });
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await fetch(origin + css, {
      headers: { 'Accept-Encoding': 'identity', 'If-None-Match': `W/"other", ${etag}` },
    });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), '');
  });

  it('sends the bundle gzip-compressed when the client accepts it, identical once decoded', async () => {
    const html = await (await fetch(`${origin}/docs`)).text();
    const bundle = assetUrlsOf(html).find((u) => u.includes('/swagger-ui-bundle.'))!;
    // node:http instead of fetch: fetch would decode the body transparently.
    const { request } = await import('node:http');
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request(origin + bundle, { headers: { 'Accept-Encoding': 'gzip, deflate' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(raw.headers['content-encoding'], 'gzip');
    assert.equal(raw.headers.vary, 'Accept-Encoding');
    const plain = await fetch(origin + bundle, { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.ok(gunzipSync(raw.body).equals(Buffer.from(await plain.arrayBuffer())));
    assert.ok(raw.body.length < 700_000, `compressed bundle is ${raw.body.length} bytes`);
  });

  it('answers 404 JSON for anything that is not one of the page assets', async () => {
    for (const name of ['swagger-ui.css', 'nope.js', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await fetch(`${origin}/docs/assets/${name}`);
      assert.equal(res.status, 404, name);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.error, 'not_found');
      assert.equal(typeof body.message, 'string');
    }
  });

  it('puts the name, what it is and how to pay first, then the ways in, and words the v1 clients by X402_V1_NETWORK', async () => {
    const mcp = { path: '/mcp', tools: [], payment: 'Pay in _meta.', local: 'Or locally.' };
    const page = async (v1: 'solana' | 'solana-mainnet') => {
      const routes = createDocsRoutes({
        openapiPath: '/openapi.json',
        title: TITLE,
        mcp,
        intro: docsIntro(v1),
      });
      return (await routes.request('/docs')).text();
    };
    const standard = await page('solana-mainnet');
    const order = ['id="title"', 'id="what"', 'id="paying"', 'id="ways-in"', 'id="mcp"', 'id="swagger-ui"'];
    const at = order.map((marker) => standard.indexOf(marker));
    assert.ok(
      at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1]!)),
      `${order} in order: ${at}`,
    );
    assert.ok(standard.includes('<code>X402_V1_NETWORK=solana</code> to serve them'), 'they cannot pay here');
    const served = await page('solana');
    assert.ok(served.includes('This service names it <code>solana</code>, so they pay'), 'they pay here');
    assert.ok(served.includes('price cap <code>maxValue</code> above its default 0.10 USDC'));
  });

  it('escapes the title and refuses an openapiPath on another origin', async () => {
    const routes = createDocsRoutes({ openapiPath: '/openapi.json', title: '<img src=x onerror=alert(1)>' });
    const html = await (await routes.request('/docs')).text();
    assert.match(html, /<title>&lt;img src=x onerror=alert\(1\)&gt;<\/title>/);
    for (const openapiPath of ['https://example.com/openapi.json', '//example.com/openapi.json']) {
      assert.throws(() => createDocsRoutes({ openapiPath, title: 'x' }), /same-origin path/);
    }
  });
});

const chromiumMissing = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found; install it with .ci/install-system-packages.sh to run the browser checks`;

describe('GET /docs in headless Chromium', { skip: chromiumMissing }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const failedRequests: string[] = [];
  const errorResponses: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    // launch() gives the browser a fresh temporary profile of its own and deletes it on close.
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
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Records what the page's CSP blocked, in case the browser does not log it as a console error.
    await context.addInitScript({
      content: `window.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
    });
    page = await watchedPage();
  });

  /** A new tab whose requests, failures and console errors are all recorded. */
  async function watchedPage(): Promise<Page> {
    const tab = await context.newPage();
    tab.on('request', (request) => requests.push(request.url()));
    tab.on('requestfailed', (request) =>
      failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? '?'}`),
    );
    tab.on('response', (response) => {
      if (response.status() >= 400) errorResponses.push(`${response.status()} ${response.url()}`);
    });
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    tab.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
    return tab;
  }

  after(async () => {
    await browser?.close();
  });

  it('renders all five operations from /openapi.json', async () => {
    await page.goto(`${origin}/docs`, { waitUntil: 'load' });
    await page
      .locator('.opblock')
      .nth(OPERATIONS.length - 1)
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await page.title(), TITLE);
    assert.equal(await page.locator('.opblock').count(), OPERATIONS.length);
    for (const op of OPERATIONS) {
      const path = page.locator(`.opblock-summary-path[data-path="${op.path}"]`);
      await path.waitFor({ state: 'visible' });
      // Swagger UI puts zero-width spaces after each "/" so long paths can wrap.
      assert.equal((await path.textContent())?.replace(/\u200b/g, ''), op.path);
    }
  });

  it('deep-links operations and runs "try it out" against the same origin', async () => {
    const tokenOp = page.locator('#operations-scan-scanToken');
    await tokenOp.locator('.opblock-summary-control').click();
    await page.waitForURL(/#\/scan\/scanToken$/);
    await tokenOp.getByRole('button', { name: 'Try it out' }).click();
    await tokenOp.locator('input[placeholder="mint"]').fill(EXAMPLE_MINT);
    const call = page.waitForResponse((r) => r.url() === `${origin}/scan/token/${EXAMPLE_MINT}`);
    await tokenOp.getByRole('button', { name: 'Execute' }).click();
    assert.equal((await call).status(), 200);
    const liveResponse = tokenOp.locator('.live-responses-table tbody .response-col_status').first();
    await liveResponse.waitFor({ state: 'visible' });
    assert.equal((await liveResponse.textContent())?.trim(), '200');
    await page.screenshot({ path: join(tmpdir(), 'docs.png'), fullPage: true });

    // A fresh load of a deep link opens that operation by itself (a new tab: changing only the
    // hash of the open one would not reload the page).
    const deepLinked = await watchedPage();
    await deepLinked.goto(`${origin}/docs#/scan/verifyTx`, { waitUntil: 'load' });
    await deepLinked
      .locator('#operations-scan-verifyTx .opblock-body')
      .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await deepLinked.locator('.opblock.is-open').count(), 1);

    for (const tab of [page, deepLinked]) {
      assert.deepEqual(await tab.evaluate(() => (globalThis as any).__cspViolations), [], 'CSP violations');
    }
  });

  it('made every request to the service itself, none failed, no console errors', () => {
    assert.ok(requests.length >= 5, `only ${requests.length} requests seen`);
    const elsewhere = requests.filter((url) => new URL(url).origin !== origin);
    assert.deepEqual(elsewhere, [], 'requests that left the service');
    assert.ok(requests.includes(`${origin}/openapi.json`), 'the page loaded /openapi.json');
    assert.deepEqual(failedRequests, []);
    assert.deepEqual(errorResponses, []);
    assert.deepEqual(consoleErrors, []);
  });
});
