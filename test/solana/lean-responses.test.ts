/**
 * The lean walk of getTransaction and getSignaturesForAddress answers (src/solana/lean-responses.ts)
 * against kit's own, on real mainnet answers (fixtures/mainnet/rpc): the same value to the type
 * (bigint where kit gives a bigint, number where kit keeps a number), whether the answer is parsed
 * as kit's HTTP transport parses it (every integer a bigint) or as plain JSON (numbers); the same
 * request sent; the same SolanaError for an error answer; and the other methods left to kit.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  createSolanaRpcFromTransport,
  isSolanaError,
  type RpcTransport,
  type Signature,
} from '@solana/kit';
import { createHttpTransportForSolanaRpc } from '@solana/rpc-transport-http';
import { createLeanSolanaRpc } from '../../src/solana/lean-responses.js';
import { MAINNET_FIXTURES } from './fixtures.js';

const RPC_FIXTURES = new URL('rpc/', MAINNET_FIXTURES);
const fixtureText = (name: string) => readFileSync(new URL(name, RPC_FIXTURES), 'utf8');
const fixturesOf = (method: string) =>
  readdirSync(RPC_FIXTURES).filter((name) => name.startsWith(`${method}-`) && name.endsWith('.json'));

/** A local endpoint answering every request with `answer`'s text, under the request's own id. */
let answer = '';
let server: Server;
let url = '';
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: unknown };
      res.setHeader('content-type', 'application/json');
      res.end(answer.replace(/^\s*\{/, `{"id":${JSON.stringify(id)},`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Kit's HTTP transport (integers parsed as bigints), and one that parses plain JSON (numbers). */
const TRANSPORTS: [string, () => RpcTransport][] = [
  ['kit http transport', () => createHttpTransportForSolanaRpc({ url })],
  ['plain JSON', () => (async () => JSON.parse(answer)) as RpcTransport],
];

type Call = (rpc: ReturnType<typeof createLeanSolanaRpc>) => Promise<unknown>;

const SIG = '5bvyp1noUJxuqFZ3dbSnsCBF1H4vqLAFkBS4wYJAMZW8pUWQZD3vqFtv4FwxTXpmzFGmfFS4Ky7vZqGqsBrWAByx';
const getTransaction =
  (encoding: 'json' | 'jsonParsed'): Call =>
  (rpc) =>
    rpc
      .getTransaction(SIG as Signature, { encoding: encoding as 'json', maxSupportedTransactionVersion: 0 })
      .send();
const getSignatures: Call = (rpc) =>
  rpc.getSignaturesForAddress('11111111111111111111111111111111' as Address, { limit: 1000 }).send();

/** What kit answers and what the lean walk answers, each through `transport`. */
async function both(transport: RpcTransport, call: Call) {
  const kit = await call(createSolanaRpcFromTransport(transport));
  const lean = await call(createLeanSolanaRpc(transport));
  return { kit, lean };
}

describe('lean walk of RPC answers', () => {
  const cases: [string, Call][] = [
    ...fixturesOf('getTransaction').map((name): [string, Call] => [
      name,
      getTransaction(name.includes('jsonParsed') ? 'jsonParsed' : 'json'),
    ]),
    ...fixturesOf('getSignaturesForAddress').map((name): [string, Call] => [name, getSignatures]),
  ];

  it('covers every getTransaction and signature page fixture', () => {
    assert.ok(cases.length >= 12, `only ${cases.length} fixtures`);
  });

  for (const [name, call] of cases) {
    for (const [how, transport] of TRANSPORTS) {
      it(`${name} (${how}): the same value as kit's, to the type`, async () => {
        answer = fixtureText(name);
        const { kit, lean } = await both(transport(), call);
        assert.notEqual(kit, null);
        assert.deepStrictEqual(lean, kit);
      });
    }
  }

  it('sends the very request kit sends (its default commitment included)', async () => {
    answer = fixtureText('getTransaction-v0-pumpswap-trade-5bvyp1no.json');
    const sent: unknown[] = [];
    const recording = (async (request: { payload: unknown }) => {
      sent.push(request.payload);
      return JSON.parse(answer);
    }) as RpcTransport;
    await both(recording, getTransaction('json'));
    type Payload = { params: [string, { commitment?: string }] };
    const [kit, lean] = sent.map((p) => ({ ...(p as Payload), id: 0 }));
    assert.deepStrictEqual(lean, kit);
    assert.equal(lean!.params[1].commitment, 'confirmed');
  });

  it("throws kit's SolanaError for an error answer", async () => {
    answer = JSON.stringify({ jsonrpc: '2.0', error: { code: -32009, message: 'Slot 1 was skipped' } });
    const errors = await Promise.all(
      [createSolanaRpcFromTransport, createLeanSolanaRpc].map((make) =>
        getSignatures(make(createHttpTransportForSolanaRpc({ url }))).then(
          () => assert.fail('an error answer must throw'),
          (e: unknown) => e,
        ),
      ),
    );
    assert.ok(errors.every((e) => isSolanaError(e)));
    const [kit, lean] = errors as Error[];
    assert.equal(lean!.message, kit!.message);
    assert.deepStrictEqual((lean as { context?: unknown }).context, (kit as { context?: unknown }).context);
  });

  it("leaves other methods to kit's walk (a token amount's decimals stay a number)", async () => {
    answer = fixtureText('getTokenLargestAccounts-sava-8-decimal-mint.json');
    const mint = 'So11111111111111111111111111111111111111112' as Address;
    const { kit, lean } = await both(createHttpTransportForSolanaRpc({ url }), (rpc) =>
      rpc.getTokenLargestAccounts(mint).send(),
    );
    assert.deepStrictEqual(lean, kit);
    assert.equal(typeof (lean as { value: { decimals: unknown }[] }).value[0]!.decimals, 'number');
  });
});
