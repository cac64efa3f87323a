/**
 * The bundled registry (data/verified-tokens.json): every entry and variant names its mint with
 * at least two sources from different places, no mint is listed twice, and what the real mainnet
 * accounts in fixtures/ say agrees with it (PYUSD's own Token-2022 metadata, USDC's and USDT's
 * mints, the payment asset).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { bundledRegistry, readBundledFile } from '../../../src/scans/verified/bundled.js';
import { parseAccountDump } from '../../../src/solana/decoders/account-dump.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import { USDC_MINT } from '../../../src/x402/networks.js';

const dump = (file: string) =>
  parseAccountDump(
    JSON.parse(readFileSync(new URL(`../../../fixtures/mainnet/accounts/${file}`, import.meta.url), 'utf8')),
  );

describe('the bundled verified-token registry', () => {
  const file = readBundledFile();
  const everyListing = file.tokens.flatMap((t) => [t, ...t.variants]);

  it('cites at least two sources per mint, from two different sites', () => {
    for (const listing of everyListing) {
      const sites = new Set(
        listing.sources.map((s) => new URL(s.url).host + new URL(s.url).pathname.split('/')[1]),
      );
      assert.ok(sites.size >= 2, `${listing.symbol} ${listing.mint}: ${[...sites]}`);
      for (const source of listing.sources) {
        const abbreviated = `${listing.mint.slice(0, 8)}`;
        assert.ok(
          source.says.includes(abbreviated),
          `${listing.symbol}: each source says which mint (${source.url})`,
        );
      }
    }
  });

  it('lists each mint once, and the registry indexes every one', () => {
    const mints = everyListing.map((l) => l.mint);
    assert.equal(new Set(mints).size, mints.length);
    assert.equal(bundledRegistry().byMint.size, mints.length);
    assert.equal(bundledRegistry().copy.copy, 'bundled');
  });

  it('agrees with the real accounts: the payment asset is its USDC, PYUSD names itself as listed', () => {
    const bySymbol = new Map(file.tokens.map((t) => [t.symbol, t]));
    assert.equal(bySymbol.get('USDC')?.mint, USDC_MINT);
    for (const [symbol, fixture] of [
      ['USDC', 'usdc-mint.json'],
      ['USDT', 'usdt-mint.json'],
      ['mSOL', 'msol-mint.json'],
      ['stSOL', 'stsol-mint.json'],
    ] as const) {
      assert.equal(dump(fixture).address, bySymbol.get(symbol)?.mint, symbol);
    }
    const pyusd = dump('pyusd-mint-t22-2024-06.json');
    const decoded = decodeMint(pyusd.data, pyusd.owner);
    assert.ok(decoded.ok);
    const metadata = decoded.value.extensions.tokenMetadata;
    const listed = bySymbol.get('PYUSD')!;
    assert.deepEqual(
      [pyusd.address, metadata?.symbol, metadata?.name],
      [listed.mint, listed.symbol, listed.name],
    );
  });
});
