/**
 * /scan/token on the real mainnet mints of USDC, USDT and PYUSD: the summary and recommendation
 * say which powers the issuer holds, who it is and what that means for a holder. The same bytes at
 * another address (a look-alike with exactly the same authorities and extensions) get no such
 * words: the strong, generic warning stands.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSolanaRpc, generateKeyPairSigner } from '@solana/kit';
import type { ScanResult } from '../../../src/contract/schemas.js';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { applyAccountDump, parseAccountDump } from '../../../src/sandbox/chain/dumps.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { bucketOf } from '../../../src/scans/risk/combine.js';
import { TOKEN_ADVICE } from '../../../src/scans/token/assess.js';
import type { TokenFlag } from '../../../src/scans/token/flags.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { ISSUER_CONTROLS } from '../../../src/scans/token/issuer-control.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/mainnet/accounts/', import.meta.url));

const STABLECOINS = [
  { asset: 'USDC', issuer: 'Circle', file: 'usdc-mint.json' },
  { asset: 'USDT', issuer: 'Tether', file: 'usdt-mint.json' },
  { asset: 'PYUSD', issuer: 'Paxos', file: 'pyusd-mint-t22-2024-06.json' },
] as const;

describe('/scan/token words issuer control on real mainnet stablecoins', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  const real = new Map<string, ScanResult>();
  const copies = new Map<string, ScanResult>();

  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    const mints: { asset: string; mint: string; copy: string }[] = [];
    for (const coin of STABLECOINS) {
      const dump = parseAccountDump(await readFile(FIXTURES + coin.file, 'utf8'), coin.file);
      const copy = (await generateKeyPairSigner()).address;
      applyAccountDump(chain, dump, dump.address, coin.file);
      applyAccountDump(chain, dump, copy, coin.file);
      mints.push({ asset: coin.asset, mint: dump.address, copy });
    }
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    const rpc = createSolanaRpc(server.url);
    const scan = async (mint: string) => (await scanToken(mint, { rpc, now: Date.now })).result;
    for (const { asset, mint, copy } of mints) {
      real.set(asset, await scan(mint));
      copies.set(asset, await scan(copy));
    }
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  const controlsOf = (result: ScanResult) =>
    result.flags.filter((f) => f in ISSUER_CONTROLS).map((f) => ISSUER_CONTROLS[f as TokenFlag]!);

  for (const { asset, issuer } of STABLECOINS) {
    it(`${asset}: names ${issuer}, each power it holds and what it means, instead of "avoid"`, () => {
      const result = real.get(asset)!;
      const controls = controlsOf(result);
      assert.ok(controls.length >= 2, `${asset} has live authorities: ${result.flags}`);
      assert.match(result.summary, new RegExp(`from the powers its issuer ${issuer} holds over it: the `));
      assert.ok(result.recommendation.startsWith(`${issuer}, the issuer of ${asset}, holds its `));
      for (const control of controls) {
        assert.ok(result.recommendation.includes(control.name), `${control.name}: ${result.recommendation}`);
        assert.ok(result.recommendation.includes(control.power), `${control.power}`);
      }
      assert.ok(result.recommendation.includes('as regulated stablecoins do'));
      assert.ok(result.recommendation.includes(`Your exposure is to ${issuer}`));
      assert.doesNotMatch(result.recommendation, /avoid/i);
    });

    it(`${asset}'s bytes at another address: the same authorities, the strong generic warning, no issuer named`, () => {
      const result = real.get(asset)!;
      const copy = copies.get(asset)!;
      assert.deepEqual(
        controlsOf(copy).map((c) => c.name),
        controlsOf(result).map((c) => c.name),
        'the same powers are raised',
      );
      assert.ok(!copy.flags.includes('TRUSTED_ISSUER'));
      const bucket = bucketOf(copy.risk_score);
      assert.ok(bucket === 'avoid' || bucket === 'do_not_interact', `${asset} copy: ${copy.risk_score}`);
      assert.equal(copy.recommendation, TOKEN_ADVICE[bucket]);
      assert.doesNotMatch(`${copy.summary} ${copy.recommendation}`, new RegExp(`${issuer}|issuer of`));
      assert.ok(copy.risk_score > result.risk_score, `${copy.risk_score} > ${result.risk_score}`);
    });
  }

  it('PYUSD: Paxos can freeze and seize balances (its permanent delegate), said in so many words', () => {
    const pyusd = real.get('PYUSD')!;
    assert.match(pyusd.summary, /the permanent delegate, mint authority, freeze authority and \d more\.$/);
    assert.match(pyusd.recommendation, /move or burn any holder's tokens \(seize balances\)/);
    assert.match(pyusd.recommendation, /freeze any holder's balance/);
  });
});
