/**
 * The verified-token list refreshed from a local HTTP server answering in the documented shape
 * of Jupiter's Tokens API v2 (`GET /tokens/v2/tag?query=verified`: an array of `{id, name, symbol,
 * decimals, isVerified, tags, …}`): a new entry is used after a refresh and kept in STATE_DIR;
 * an unreachable, failing, malformed, huge, late or gutted list keeps the last good copy, and
 * the registry's copy says which one is used and why.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import { LAST_GOOD_FILE, VerifiedTokenList } from '../../../src/scans/verified/list-source.js';
import { formsOf } from '../../../src/scans/verified/skeleton.js';

type Answer = (res: ServerResponse) => void;

/** One token as the Tokens API v2 documents it (fields beyond these are ignored). */
const mintInformation = (id: string, symbol: string, name: string) => ({
  id,
  name,
  symbol,
  icon: null,
  decimals: 6,
  tokenProgram: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  isVerified: true,
  tags: ['verified'],
  organicScore: 90,
  organicScoreLabel: 'high',
  updatedAt: '2026-12-01T00:00:00Z',
});

describe('the verified-token list, refreshed from a local server', () => {
  let server: Server;
  let url: string;
  let answer: Answer = (res) => res.end('[]');
  let stateDir: string;
  let newt: string;
  let others: ReturnType<typeof mintInformation>[];
  const lists: VerifiedTokenList[] = [];
  const listOf = (limits = {}) => {
    const list = new VerifiedTokenList({ source: url, stateDir, limits: { timeoutMs: 5_000, ...limits } });
    lists.push(list);
    return list;
  };
  const serveJson =
    (body: unknown): Answer =>
    (res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
  const listed = (list: VerifiedTokenList, mint: string) => list.current().byMint.has(mint);

  before(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'verified-list-'));
    newt = (await generateKeyPairSigner()).address;
    others = await Promise.all(
      Array.from({ length: 9 }, async (_, i) =>
        mintInformation((await generateKeyPairSigner()).address, `TK${i}`, `Token ${i}`),
      ),
    );
    server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tokens/v2/tag?query=verified`;
  });

  after(async () => {
    for (const list of lists) list.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(stateDir, { recursive: true, force: true });
  });

  it('with no list ever read, the bundled registry is used and says why', async () => {
    answer = (res) => {
      res.statusCode = 503;
      res.end('down');
    };
    const list = listOf();
    assert.equal(await list.refresh(), false);
    const { copy } = list.current();
    assert.equal(copy.copy, 'bundled');
    assert.match(copy.note, /no list could be read .*HTTP 503/);
  });

  it('a new entry is used after a refresh, and the list is kept in STATE_DIR', async () => {
    answer = serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol'), ...others]);
    const list = listOf();
    assert.equal(listed(list, newt), false);
    assert.equal(await list.refresh(), true);
    assert.equal(listed(list, newt), true);
    const { copy } = list.current();
    assert.deepEqual([copy.copy, copy.source], ['refreshed', url]);
    const forms = list.current().byForm.get(formsOf('$NEWT')[0]!)!;
    assert.equal(forms[0]!.listing.mint, newt);
    const kept = JSON.parse(await readFile(join(stateDir, LAST_GOOD_FILE), 'utf8'));
    assert.equal(kept.tokens.length, 10);
  });

  for (const [what, bad, why] of [
    ['unreachable', null, /fetch failed|ECONNREFUSED/],
    [
      'failing',
      ((res) => {
        res.statusCode = 500;
        res.end();
      }) as Answer,
      /HTTP 500/,
    ],
    ['not JSON', ((res) => res.end('<html>oops</html>')) as Answer, /not JSON/],
    ['of another shape', serveJson({ data: { tokens: 'none' } }), /not a list of tokens/],
    [
      'mostly unreadable',
      (res: ServerResponse) =>
        serveJson([{ id: 'x', symbol: 1 }, { nope: true }, mintInformation(newt, 'N', 'N')])(res),
      /unreadable/,
    ],
    [
      'gutted',
      (res: ServerResponse) => serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol')])(res),
      /less than half/,
    ],
  ] as const) {
    it(`a list that is ${what} keeps the last good copy, and says so`, async () => {
      const list = listOf();
      answer = serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol'), ...others]);
      assert.equal(await list.refresh(), true);
      const source = bad === null ? `http://127.0.0.1:${await closedPort()}/tokens` : url;
      const failing = bad === null ? new VerifiedTokenList({ source, stateDir }) : list;
      if (bad === null) {
        lists.push(failing);
        await failing.load();
      } else answer = bad;
      assert.equal(await failing.refresh(), false);
      const { copy } = failing.current();
      assert.equal(copy.copy, 'last-good');
      assert.match(copy.note, why);
      assert.equal(listed(failing, newt), true, 'the new entry is still used');
    });
  }

  it('a huge answer is cut at the size cap, declared or streamed, and keeps the last good copy', async () => {
    const list = listOf({ maxBytes: 4_096 });
    answer = serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol'), ...others.slice(0, 2)]);
    assert.equal(await list.refresh(), true);
    const huge = JSON.stringify([...Array(200)].map(() => others[0]));
    answer = (res) => res.end(huge); // with its content-length
    assert.equal(await list.refresh(), false);
    assert.match(list.current().copy.note, /larger than 4096 bytes/);
    answer = (res) => {
      res.write(huge.slice(0, 3_000)); // chunked: no length declared
      res.end(huge.slice(3_000));
    };
    assert.equal(await list.refresh(), false);
    assert.match(list.current().copy.note, /larger than 4096 bytes/);
    assert.equal(listed(list, newt), true);
  });

  it('a late answer is given up at the time cap, and keeps the last good copy', async () => {
    const list = listOf({ timeoutMs: 300 });
    answer = serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol'), ...others]);
    assert.equal(await list.refresh(), true);
    answer = (res) => res.write('[{"id":'); // and never more
    assert.equal(await list.refresh(), false);
    assert.match(list.current().copy.note, /no complete answer within 300 ms/);
    assert.equal(listed(list, newt), true);
  });

  it('a restart takes up the copy kept in STATE_DIR before any read, and keeps it while the list is down', async () => {
    answer = serveJson([mintInformation(newt, 'NEWT', 'Newt Protocol'), ...others]);
    assert.equal(await listOf().refresh(), true);
    answer = (res) => {
      res.statusCode = 502;
      res.end();
    };
    const restarted = listOf();
    await restarted.start(3_600_000);
    assert.equal(listed(restarted, newt), true);
    assert.equal(restarted.current().copy.copy, 'last-good');
    assert.match(restarted.current().copy.note, /HTTP 502/);
  });

  it('reads a file as well as a URL, and refuses a file over the cap', async () => {
    const file = join(stateDir, 'operator-list.json');
    await writeFile(file, JSON.stringify({ tokens: [{ address: newt, symbol: 'NEWT', name: 'Newt' }] }));
    const fromFile = new VerifiedTokenList({ source: file, stateDir: join(stateDir, 'other') });
    lists.push(fromFile);
    assert.equal(await fromFile.refresh(), true);
    assert.equal(listed(fromFile, newt), true);
    const capped = new VerifiedTokenList({
      source: file,
      stateDir: join(stateDir, 'third'),
      limits: { maxBytes: 10 },
    });
    lists.push(capped);
    assert.equal(await capped.refresh(), false);
    assert.equal(capped.current().copy.copy, 'bundled');
  });
});

/** A port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
