/**
 * How x402scan / AgentCash list the service: their own discovery checker, the pinned
 * @agentcash/discovery CLI (`discovery discover <origin> --json`, the audit x402scan runs), run
 * against the real server. It reads /openapi.json, checks every route (L2, L3 with a probe of
 * each paid path), info.x-guidance (L4), info.contact and the favicon, and must report nothing:
 * no error, no warning, no info. Nothing is allowed to stay unfixed today; a finding we could not
 * fix would be listed in UNFIXABLE with the reason.
 *
 * The L3 probe requests each OpenAPI path as written (`/scan/token/{mint}`, braces
 * percent-encoded). It now gets the endpoint's 402, so the checker also audits the live offer
 * (the v2 PAYMENT-REQUIRED, its bazaar input and output schemas); before, it got a 400 and the
 * offer went unchecked.
 *
 * The additions are the profile's own fields; the contract's `x-x402`, `x-x402-price-usd` and
 * `info.version` are checked unchanged here as well as in contract.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { discoverOriginSchema, getProbe, getWarningsFor402Body, type L2Route } from '@agentcash/discovery';
import { GET_ENDPOINTS, PAID_ENDPOINTS, type PaidEndpoint } from '../../src/catalog.js';
import { usdAmount } from '../../src/server/discovery/openapi.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { jsonOf, startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

const run = promisify(execFile);
/** The package's own bin script (its export map does not expose the CLI module). */
const CHECKER = fileURLToPath(
  new URL('../../node_modules/@agentcash/discovery/bin/discovery.js', import.meta.url),
);

/** Findings the checker may report that we cannot fix, by code, with the reason. None today. */
const UNFIXABLE: Readonly<Record<string, string>> = {};

interface Finding {
  code: string;
  severity: 'error' | 'warn' | 'info';
  message: string;
}

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

describe('the AgentCash discovery checker (x402scan) against the real server', () => {
  it('reports zero errors, zero warnings and zero notes', async () => {
    const { stdout } = await run(process.execPath, [CHECKER, 'discover', svc.url, '--json'], {
      timeout: 60_000,
    });
    const report = JSON.parse(stdout) as { ok: boolean; selectedStage: string; warnings: Finding[] };
    assert.equal(report.ok, true);
    assert.equal(report.selectedStage, 'openapi');
    const findings = report.warnings.filter((w) => !(w.code in UNFIXABLE));
    assert.deepEqual(
      findings.map((w) => `${w.severity} ${w.code}: ${w.message}`),
      [],
    );
  });

  it('its probe of each templated path gets the paid 402 offer, and finds nothing wrong with it', async () => {
    for (const e of PAID_ENDPOINTS as readonly PaidEndpoint[]) {
      // The request the CLI makes for each route: getProbe(origin + OpenAPI path).
      const probed = await getProbe(svc.url + e.path);
      assert.ok(probed.isOk(), e.path);
      const get = probed.value.find((r) => r.method === e.method);
      assert.ok(get, `${e.path}: answered 402 (a 400 is not a usable probe)`);
      assert.equal(get.authHint, 'paid', e.path);
      assert.ok(get.paymentRequiredBody, `${e.path}: the offer was read`);
      assert.deepEqual(getWarningsFor402Body(get.paymentRequiredBody), [], e.path);
    }
  });

  it('reads every paid operation as paid, at the catalog price, over x402, and the rest as free', async () => {
    const result = await discoverOriginSchema({ target: svc.url });
    assert.equal(result.found, true);
    if (!result.found) return;
    assert.equal(result.source, 'openapi');
    assert.ok(result.guidanceAvailable, 'info.x-guidance is read');
    for (const e of PAID_ENDPOINTS as readonly PaidEndpoint[]) {
      const route: L2Route | undefined = result.endpoints.find(
        (r) => r.path === e.path && r.method === e.method,
      );
      assert.ok(route, e.path);
      assert.equal(route.authMode, 'paid', e.path);
      if (e.price.per !== 'call') {
        // Priced per hour: from one hour to the longest watch.
        assert.equal(route.pricingMode, 'dynamic', e.path);
      } else {
        assert.equal(route.price, `${usdAmount(e.price.usd)} USD`, e.path);
        assert.equal(route.pricingMode, 'fixed', e.path);
      }
      assert.deepEqual(route.protocols, ['x402'], e.path);
    }
    const paidPaths = new Set<string>(PAID_ENDPOINTS.map((e) => e.path));
    const free = result.endpoints.filter((r) => !paidPaths.has(r.path));
    assert.ok(free.length >= 9);
    for (const route of free) assert.equal(route.authMode, 'unprotected', route.path);
  });
});

describe('the x402scan OpenAPI profile in /openapi.json', () => {
  let doc: Record<string, any>;
  before(async () => {
    doc = await jsonOf(await fetch(`${svc.url}/openapi.json`));
  });

  it('keeps the contract fields exactly as they are', () => {
    assert.equal(doc.info.version, '0.0.0');
    assert.deepEqual(doc['x-x402'], {
      version: 1,
      facilitators: [stub.url],
      asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      network: 'solana-mainnet',
    });
    assert.deepEqual(
      GET_ENDPOINTS.map((e) => doc.paths[e.path].get['x-x402-price-usd']),
      [0.5, 0.3, 0.02, 0.05, 1],
    );
    assert.equal(doc.paths['/simulate/tx'].post['x-x402-price-usd'], 0.05);
  });

  it('gives each paid operation x-payment-info with the catalog price and a documented 402', () => {
    const amounts: Record<string, string> = {};
    for (const e of PAID_ENDPOINTS as readonly PaidEndpoint[]) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      if (e.price.per !== 'call') {
        // A watch from one hour to a week; a batch from one wallet to 25 pump.fun tokens.
        const range = e.price.per === 'hour' ? { min: '0.01', max: '1.68' } : { min: '0.02', max: '12.50' };
        assert.deepEqual(op['x-payment-info'], {
          price: { mode: 'dynamic', currency: 'USD', ...range },
          protocols: [{ x402: {} }],
        });
        assert.equal(op['x-x402-price-usd'], e.price.per === 'hour' ? e.price.usd : 0.02);
        assert.ok(op.responses['402']?.description, `${e.path} documents its 402`);
        continue;
      }
      assert.deepEqual(op['x-payment-info'], {
        price: { mode: 'fixed', currency: 'USD', amount: usdAmount(e.price.usd) },
        protocols: [{ x402: {} }],
      });
      assert.equal(Number(op['x-payment-info'].price.amount), e.price.usd);
      amounts[e.id] = op['x-payment-info'].price.amount;
      assert.ok(op.responses['402']?.description, `${e.path} documents its 402`);
      assert.deepEqual(op.security, [], `${e.path}: payment, not API authentication`);
    }
    assert.deepEqual(amounts, {
      pumpfun: '0.50',
      token: '0.30',
      wallet: '0.02',
      tx: '0.05',
      program: '1.00',
      simulate: '0.05',
    });
  });

  it('declares security: [] on every free operation', () => {
    const free = Object.entries(doc.paths).filter(
      ([, item]: [string, any]) => item.get !== undefined && !item.get['x-payment-info'],
    );
    assert.ok(free.length >= 9);
    for (const [path, item] of free as [string, any][]) {
      assert.deepEqual(item.get.security, [], path);
      assert.equal(item.get['x-x402-price-usd'], undefined, path);
    }
  });

  it('carries info.x-guidance, info.contact and the llms.txt pointer', () => {
    const text: string = doc.info['x-guidance'];
    assert.ok(text.length > 0 && text.length < 4000);
    for (const e of PAID_ENDPOINTS as readonly PaidEndpoint[]) {
      const price =
        e.price.per === 'item'
          ? '0.02 to 0.50 USD per item'
          : e.price.per === 'call'
            ? `${usdAmount(e.price.usd)} USD`
            : `${usdAmount(e.price.usd)} USD per hour`;
      assert.ok(text.includes(`${e.method} ${e.path} (${price})`), e.path);
    }
    assert.match(text, /402/);
    assert.equal(doc.info.contact.url, svc.url);
    assert.equal(doc['x-agentcash-guidance'].llmsTxtUrl, `${svc.url}/llms.txt`);
  });
});

describe('/favicon.svg', () => {
  it('is a small SVG, free and cached, linked from /', async () => {
    const res = await fetch(`${svc.url}/favicon.svg`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=86400');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const svg = await res.text();
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.doesNotMatch(svg, /<script|href=/i);
    assert.ok(svg.length < 2048);
    const root = await jsonOf(await fetch(`${svc.url}/`));
    assert.equal(root.links.favicon, `${svc.url}/favicon.svg`);
  });

  it('answers HEAD as the checker asks it', async () => {
    const res = await fetch(`${svc.url}/favicon.svg`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
  });
});

describe('usdAmount', () => {
  it('writes at least two decimals and never rounds a catalog price', () => {
    assert.equal(usdAmount(0.5), '0.50');
    assert.equal(usdAmount(1), '1.00');
    assert.equal(usdAmount(0.02), '0.02');
    assert.equal(usdAmount(0.125), '0.125');
    assert.equal(usdAmount(12), '12.00');
  });
});
