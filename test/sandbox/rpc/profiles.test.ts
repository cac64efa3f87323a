import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  createSolanaRpc,
  generateKeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../../src/sandbox/chain/addresses.js';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { LARGE_PROGRAMS, type RpcProfileOptions } from '../../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { fundUsdc, installUsdcMint, USDC_MINT } from '../../../src/sandbox/usdc.js';
import { PUMP_PROGRAM, PUMPSWAP_PROGRAM } from '../../../src/solana/programs.js';
import { rpcError } from '../harness.js';

/** A recorded provider answer from fixtures/providers (provenance in PROVENANCE.md there). */
function fixture(name: string): any {
  return JSON.parse(
    readFileSync(new URL(`../../../fixtures/providers/${name}.json`, import.meta.url), 'utf8'),
  );
}

const EXCLUDED = fixture('public-mainnet-getTokenLargestAccounts-32010').response.error;
const DISABLED = fixture('public-mainnet-getProgramAccounts-disabled-410');
const PER_METHOD = fixture('public-mainnet-429-per-method');
const PER_IP = fixture('public-mainnet-429-per-ip');
const TOO_MANY = fixture('indexed-provider-getProgramAccounts-too-many-accounts').sandboxAnswer;
const PAID_PLAN_429 = fixture('paid-plan-429');

const SMALL_PROGRAM = 'Fxo6qW4oP2VmDKT5z1zK1TeaRuKkQyPRV4RGgZ7VfCnt' as Address;
/** Filters a careful client sends: they do not save a scan of a large program. */
const FILTERS = [
  { dataSize: 165n },
  { memcmp: { offset: 0n, bytes: USDC_MINT, encoding: 'base58' } },
] as const;

interface Served {
  server: SandboxRpc;
  rpc: Rpc<SolanaRpcApi>;
}

async function serve(
  chain: SandboxChain,
  profile?: RpcProfileOptions['name'] | RpcProfileOptions,
): Promise<Served> {
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0, profile });
  return { server, rpc: createSolanaRpc(server.url) as Rpc<SolanaRpcApi> };
}

async function post(
  url: string,
  body: unknown,
): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

/** kit's error for an HTTP status other than 200. */
async function httpError(promise: Promise<unknown>): Promise<{ statusCode: number; headers: Headers }> {
  const { context } = await rpcError(promise);
  return { statusCode: Number(context.statusCode), headers: context.headers as Headers };
}

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('sandbox RPC provider profiles', () => {
  let chain: SandboxChain;
  let ideal: Served;
  let publicMainnet: Served;
  let indexed: Served;
  let holder: Address;
  const token2022Mint = 'So11111111111111111111111111111111111111112' as Address;

  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    const authority = await generateKeyPairSigner();
    chain.setAccount({ address: authority.address, lamports: 10_000_000_000n });
    installUsdcMint(chain, authority.address);
    holder = (await generateKeyPairSigner()).address;
    await fundUsdc(chain, authority, [{ owner: holder, amount: 5_000_000n }]);
    // A bare Token-2022 mint: 82 bytes, decimals 9, initialized.
    const mint = new Uint8Array(82);
    mint[44] = 9;
    mint[45] = 1;
    chain.setAccount({ address: token2022Mint, lamports: 1_461_600n, data: mint, owner: TOKEN_2022_PROGRAM });
    for (let i = 0; i < 3; i++) {
      const data = new Uint8Array(i === 2 ? 41 : 40).fill(i);
      chain.setAccount({
        address: (await generateKeyPairSigner()).address,
        lamports: 1n,
        data,
        owner: SMALL_PROGRAM,
      });
    }
    // The rate limit has its own server and tests; these answer without one.
    ideal = await serve(chain);
    publicMainnet = await serve(chain, { name: 'public-mainnet', rateLimit: null });
    indexed = await serve(chain, 'indexed-provider');
  });
  after(async () => {
    chain.stop();
    await Promise.all([ideal, publicMainnet, indexed].map((s) => s.server.close()));
  });

  describe('ideal (the default)', () => {
    it('serves the token-program scans and largest accounts every provider refuses', async () => {
      const accounts = await ideal.rpc
        .getProgramAccounts(TOKEN_PROGRAM as Address, { encoding: 'base64', filters: [...FILTERS] })
        .send();
      assert.equal(accounts.length, 1);
      const largest = await ideal.rpc.getTokenLargestAccounts(USDC_MINT).send();
      assert.equal(largest.value[0]?.amount, '5000000');
      assert.equal((await ideal.rpc.getProgramAccounts(PUMP_PROGRAM).send()).length, 0);
    });

    it('has no rate limit: a batch of 150 calls is served', async () => {
      const { status, body } = await post(
        ideal.server.url,
        Array.from({ length: 150 }, (_, i) => call('getSlot', [], i)),
      );
      assert.equal(status, 200);
      assert.equal(body.length, 150);
      assert.ok(body.every((r: { result?: unknown }) => r.result !== undefined));
    });
  });

  describe('public-mainnet (api.mainnet-beta.solana.com)', () => {
    it('refuses getTokenLargestAccounts with -32010 naming the mint’s token program', async () => {
      const spl = await rpcError(publicMainnet.rpc.getTokenLargestAccounts(USDC_MINT).send());
      assert.equal(spl.code, -32010);
      assert.equal(spl.message, EXCLUDED.message);
      const t22 = await rpcError(publicMainnet.rpc.getTokenLargestAccounts(token2022Mint).send());
      assert.equal(t22.code, -32010);
      assert.equal(t22.message, EXCLUDED.message.replace(TOKEN_PROGRAM, TOKEN_2022_PROGRAM));
      // The whole answer, as recorded (HTTP 200, the request's id).
      const raw = await post(publicMainnet.server.url, call('getTokenLargestAccounts', [USDC_MINT], 'x'));
      assert.equal(raw.status, 200);
      assert.deepEqual(raw.body, { jsonrpc: '2.0', id: 'x', error: EXCLUDED });
    });

    it('refuses getProgramAccounts on the token programs with -32010 whatever the filters', async () => {
      const recorded = fixture('public-mainnet-getProgramAccounts-tokenkeg-32010');
      const raw = await post(publicMainnet.server.url, recorded.request);
      assert.equal(raw.status, recorded.httpStatus);
      assert.deepEqual(raw.body, recorded.response);
      const t22 = await rpcError(
        publicMainnet.rpc.getProgramAccounts(TOKEN_2022_PROGRAM as Address, { filters: [...FILTERS] }).send(),
      );
      assert.equal(t22.code, -32010);
      assert.match(
        t22.message,
        /^TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb excluded from account secondary/,
      );
    });

    it('refuses getTokenAccountsByDelegate (a token-program scan) with -32010, and serves getTokenAccountsByOwner', async () => {
      const delegate = (await generateKeyPairSigner()).address;
      const refused = await rpcError(
        publicMainnet.rpc
          .getTokenAccountsByDelegate(delegate, { programId: TOKEN_PROGRAM as Address })
          .send(),
      );
      assert.deepEqual([refused.code, refused.message], [-32010, EXCLUDED.message]);
      const byMint = await rpcError(
        publicMainnet.rpc.getTokenAccountsByDelegate(delegate, { mint: USDC_MINT }).send(),
      );
      assert.equal(byMint.code, -32010);
      const owned = await publicMainnet.rpc
        .getTokenAccountsByOwner(holder, { mint: USDC_MINT }, { encoding: 'base64' })
        .send();
      assert.equal(owned.value.length, 1);
    });

    it('answers getProgramAccounts on other large programs with HTTP 410, filtered or not', async () => {
      for (const program of [PUMP_PROGRAM, PUMPSWAP_PROGRAM, SYSTEM_PROGRAM as Address]) {
        const error = await httpError(
          publicMainnet.rpc.getProgramAccounts(program, { filters: [...FILTERS] }).send(),
        );
        assert.equal(error.statusCode, 410, program);
      }
      const raw = await post(publicMainnet.server.url, { ...DISABLED.request, id: DISABLED.response.id });
      assert.equal(raw.status, DISABLED.httpStatus);
      assert.deepEqual(raw.body, DISABLED.response);
    });

    it('still serves getProgramAccounts with filters on a program that is not large', async () => {
      const rows = await publicMainnet.rpc
        .getProgramAccounts(SMALL_PROGRAM, { encoding: 'base64', filters: [{ dataSize: 40n }] })
        .send();
      assert.equal(rows.length, 2);
    });
  });

  describe('indexed-provider (Helius, Alchemy, dRPC)', () => {
    it('rejects getProgramAccounts on every large program with -32600 before filters apply', async () => {
      assert.ok(LARGE_PROGRAMS.length >= 5);
      for (const program of [
        PUMP_PROGRAM,
        PUMPSWAP_PROGRAM,
        TOKEN_PROGRAM,
        TOKEN_2022_PROGRAM,
        SYSTEM_PROGRAM,
      ]) {
        const error = await rpcError(
          indexed.rpc
            .getProgramAccounts(program as Address, { encoding: 'base64', filters: [...FILTERS] })
            .send(),
        );
        assert.deepEqual([error.code, error.message], [TOO_MANY.error.code, TOO_MANY.error.message], program);
      }
      const raw = await post(indexed.server.url, call('getProgramAccounts', [PUMP_PROGRAM]));
      assert.equal(raw.status, TOO_MANY.httpStatus);
      assert.deepEqual(raw.body, { jsonrpc: '2.0', id: 1, error: TOO_MANY.error });
    });

    it('serves getTokenLargestAccounts, and getProgramAccounts on a program that is not large', async () => {
      const largest = await indexed.rpc.getTokenLargestAccounts(USDC_MINT).send();
      assert.equal(largest.value.length, 1);
      const rows = await indexed.rpc
        .getProgramAccounts(SMALL_PROGRAM, {
          encoding: 'base64',
          filters: [{ memcmp: { offset: 0n, bytes: 'AgI=' as never, encoding: 'base64' } }],
        })
        .send();
      assert.equal(rows.length, 1);
    });

    it('refuses a large-program scan inside a batch without failing the other calls', async () => {
      const { status, body } = await post(indexed.server.url, [
        call('getSlot', [], 1),
        call('getProgramAccounts', [TOKEN_PROGRAM], 2),
      ]);
      assert.equal(status, 200);
      assert.ok(body[0].result !== undefined);
      assert.deepEqual(body[1], { jsonrpc: '2.0', id: 2, error: TOO_MANY.error });
    });
  });

  describe('public-mainnet rate limits', () => {
    let now = 0;
    let limited: Served;
    before(async () => {
      limited = await serve(chain, {
        name: 'public-mainnet',
        rateLimit: { windowMs: 10_000, perIp: 5, perMethod: 3 },
        now: () => now,
      });
    });
    after(() => limited.server.close());

    it('answers 429 with Retry-After past the per-method limit, then serves again after the window', async () => {
      now = 0;
      for (let i = 0; i < 3; i++) await limited.rpc.getSlot().send();
      now = 2_500;
      const error = await httpError(limited.rpc.getSlot().send());
      assert.equal(error.statusCode, 429);
      assert.equal(error.headers.get('retry-after'), '8'); // the first call leaves the window at 10 s
      const raw = await post(limited.server.url, call('getSlot'));
      assert.deepEqual([raw.status, raw.retryAfter], [429, '8']);
      assert.deepEqual(raw.body, PER_METHOD.response);
      // Another method still has room under the per-IP limit.
      await limited.rpc.getBalance(holder).send();
      now = 10_000;
      assert.equal(typeof (await limited.rpc.getSlot().send()), 'bigint');
    });

    it('answers the per-IP 429 past 100 calls (here 5) across methods', async () => {
      now = 100_000;
      await limited.rpc.getSlot().send();
      await limited.rpc.getBalance(holder).send();
      await limited.rpc.getEpochInfo().send();
      await limited.rpc.getBlockHeight().send();
      now = 101_000;
      await limited.rpc.getVersion().send();
      const raw = await post(limited.server.url, call('getHealth', [], PER_IP.response.id));
      assert.deepEqual([raw.status, raw.retryAfter], [429, '9']);
      assert.deepEqual(raw.body, PER_IP.response);
      now = 110_000;
      assert.equal(await limited.rpc.getHealth().send(), 'ok');
    });

    it('counts each call of a batch, answering one 429 with id null', async () => {
      now = 200_000;
      const over = await post(limited.server.url, [
        call('getSlot', [], 1),
        call('getSlot', [], 2),
        call('getSlot', [], 3),
        call('getSlot', [], 4),
      ]);
      assert.equal(over.status, 429);
      assert.equal(over.retryAfter, '10');
      assert.deepEqual(over.body, { jsonrpc: '2.0', error: PER_METHOD.response.error, id: null });
      // A refused batch uses no quota: three calls of one method fit.
      const fits = await post(limited.server.url, [
        call('getSlot', [], 1),
        call('getSlot', [], 2),
        call('getSlot', [], 3),
      ]);
      assert.equal(fits.status, 200);
      assert.equal(fits.body.length, 3);
      const next = await httpError(limited.rpc.getSlot().send());
      assert.equal(next.statusCode, 429);
    });
  });

  describe('paid-plan rate limit (50 requests a second, a token bucket)', () => {
    let now = 0;
    let plan: Served;
    before(async () => {
      plan = await serve(chain, { name: 'paid-plan', now: () => now });
    });
    after(() => plan.server.close());

    it('serves a burst of 50, answers the 51st with the provider’s 429, and serves one more each 20 ms', async () => {
      now = 0;
      for (let i = 0; i < 50; i++) await plan.rpc.getSlot().send();
      const raw = await post(plan.server.url, call('getSlot', [], PAID_PLAN_429.response.id));
      assert.deepEqual([raw.status, raw.retryAfter], [PAID_PLAN_429.httpStatus, null]);
      assert.deepEqual(raw.body, PAID_PLAN_429.response);
      now = 19;
      assert.equal((await httpError(plan.rpc.getBalance(holder).send())).statusCode, 429);
      now = 20;
      await plan.rpc.getBalance(holder).send();
      assert.equal((await httpError(plan.rpc.getSlot().send())).statusCode, 429);
      assert.equal(plan.server.rateLimited(), 3);
    });

    it('refills at 50 a second up to 50, whatever the methods', async () => {
      now = 10_000;
      for (let i = 0; i < 25; i++) await plan.rpc.getSlot().send();
      for (let i = 0; i < 25; i++) await plan.rpc.getBalance(holder).send();
      now = 10_500;
      for (let i = 0; i < 25; i++) await plan.rpc.getEpochInfo().send();
      assert.equal((await httpError(plan.rpc.getSlot().send())).statusCode, 429);
    });

    it('counts each call of a batch: one that needs more tokens than are left is refused whole', async () => {
      now = 20_000;
      const batch = (n: number) => Array.from({ length: n }, (_, i) => call('getSlot', [], i + 1));
      assert.equal((await post(plan.server.url, batch(40))).status, 200);
      const over = await post(plan.server.url, batch(11));
      assert.equal(over.status, 429);
      assert.deepEqual(over.body, { jsonrpc: '2.0', error: PAID_PLAN_429.response.error, id: null });
      assert.equal((await post(plan.server.url, batch(10))).status, 200);
    });
  });
});
