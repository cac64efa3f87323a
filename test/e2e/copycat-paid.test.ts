/**
 * Copycat tickers, paid for through the official x402 client against `risk-scan sandbox` with its
 * RPC answering as an ideal node, an indexed provider and the public mainnet endpoint
 * (SANDBOX_RPC_PROFILE): the exact copy, the look-alike letters, the decorated symbol and the
 * Metaplex copy of JUP raise IMPERSONATES_VERIFIED_TOKEN naming the verified mint, on /scan/token
 * and /scan/pumpfun; USDC itself and a listed variant do not. Then the sandbox started with
 * VERIFIED_TOKENS_URL pointing at a local server in the documented shape of Jupiter's list: a new
 * entry is used, and a restart while the list is down keeps the last good copy and says so.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type ScenarioManifest, subject } from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';
import { jsonOf } from '../helpers/service.js';

const CODE = 'IMPERSONATES_VERIFIED_TOKEN';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const COPIES = [
  ['token:copycat-usdc', USDC, 'USDC'],
  ['token:copycat-lookalike', USDC, 'U\u0405DC'],
  ['token:copycat-decorated', USDC, '$USDC'],
  ['token:copycat-jup', JUP, 'JUP'],
] as const;

/** Pays for a scan of the manifest's `name`, at /scan/token or /scan/pumpfun. */
function scanner(sandbox: RunningSandbox, manifest: ScenarioManifest, pay: typeof fetch) {
  return async (name: string, path: 'token' | 'pumpfun' = 'token') => {
    const res = await pay(`${sandbox.api.url}/scan/${path}/${subject(manifest, 'token', name).address}`);
    const body = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(res.headers.get('payment-response'), 'paid: a settlement receipt comes with the result');
    return body;
  };
}

for (const profile of [
  'ideal',
  'indexed-provider',
  'public-mainnet',
] as const satisfies readonly RpcProfileName[]) {
  describe(`copycat tickers, paid, RPC profile ${profile}`, { timeout: 300_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'copycat-'));
    let sandbox: RunningSandbox;
    let manifest: ScenarioManifest;
    let scan: ReturnType<typeof scanner>;

    before(async () => {
      sandbox = await startCustomerSandbox(dir, profile);
      manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
      scan = scanner(sandbox, manifest, await payingFetch(sandbox));
    });
    after(async () => {
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const [name, verified, symbol] of COPIES) {
      it(`${name}: flagged as its manifest says, naming ${verified.slice(0, 4)}… and the field that matched`, async () => {
        const body = await scan(name);
        const { flags, notFlags } = subject(manifest, 'token', name).expect;
        for (const code of flags) assert.ok(body.flags.includes(code), `${code} in ${body.flags}`);
        for (const code of notFlags) assert.ok(!body.flags.includes(code), `${code} not in ${body.flags}`);
        const evidence = body.evidence.flags[CODE];
        assert.deepEqual(evidence.verified_mints, [verified]);
        const match = evidence.matches.find((m: { field: string }) => m.field === 'symbol');
        assert.equal(match.value, symbol);
        assert.equal(match.verified_form, match.form);
        assert.equal(body.evidence.verified_registry.copy, 'bundled');
      });
    }

    it('/scan/pumpfun runs the same check on the copy', async () => {
      const body = await scan('token:copycat-usdc', 'pumpfun');
      assert.ok(body.flags.includes(CODE), `${body.flags}`);
    });

    for (const name of ['token:usdc', 'token:verified-variant']) {
      it(`${name}: on the registry, not flagged, and its evidence says so`, async () => {
        const body = await scan(name);
        assert.ok(!body.flags.includes(CODE), `${body.flags}`);
        for (const code of subject(manifest, 'token', name).expect.flags)
          assert.ok(body.flags.includes(code), code);
        assert.ok(body.evidence.verified_token, 'listed');
      });
    }
  });
}

describe('the registry refreshed from a local list in the documented shape, paid end to end', {
  timeout: 300_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'copycat-list-'));
  let server: Server;
  let answer: (res: ServerResponse) => void;
  let url: string;
  let cleanMint: string;

  before(async () => {
    server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tokens/v2/tag?query=verified`;
    cleanMint = (await generateKeyPairSigner()).address;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** token:clean (symbol CLEAN) against a list that verifies another mint as "CLEAN". */
  const scanClean = async () => {
    const sandbox = await startCustomerSandbox(dir, 'ideal', { VERIFIED_TOKENS_URL: url });
    try {
      const manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
      return await scanner(sandbox, manifest, await payingFetch(sandbox))('token:clean');
    } finally {
      await sandbox.close();
    }
  };

  it('a new entry is used once read, and a restart while the list is down keeps it, saying which copy', async () => {
    answer = (res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify([
          {
            id: cleanMint,
            name: 'Clean Protocol',
            symbol: 'CLEAN',
            decimals: 6,
            isVerified: true,
            tags: ['verified'],
          },
        ]),
      );
    };
    const fresh = await scanClean();
    assert.ok(fresh.flags.includes(CODE), `${fresh.flags}`);
    assert.deepEqual(fresh.evidence.flags[CODE].verified_mints, [cleanMint]);
    assert.deepEqual(
      [fresh.evidence.verified_registry.copy, fresh.evidence.verified_registry.source],
      ['refreshed', url],
    );

    answer = (res) => {
      res.statusCode = 503;
      res.end();
    };
    const kept = await scanClean();
    assert.ok(kept.flags.includes(CODE), `${kept.flags}`);
    assert.equal(kept.evidence.verified_registry.copy, 'last-good');
    assert.match(kept.evidence.verified_registry.note, /latest refresh failed .*HTTP 503/);
  });
});
