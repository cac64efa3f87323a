/**
 * IMPERSONATES_VERIFIED_TOKEN on account bytes made by the encoders: a Token-2022 mint whose own
 * metadata copies a verified token's symbol or name (exactly, with look-alike letters, decorated),
 * a Metaplex copy on an SPL Token mint, the real mint and a listed variant (never flagged), and
 * untrusted metadata (invalid UTF-8, control characters, a name of 60,000 characters (a Token-2022 extension holds 65,535 bytes at most)) handled
 * and shown escaped. Also /scan/pumpfun's checks, and a registry refreshed with a new entry.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, none } from '@solana/kit';
import type { ExtensionArgs } from '@solana-program/token-2022';
import type { ScanResult } from '../../../src/contract/schemas.js';
import { encodeBondingCurve } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { assessPumpfun } from '../../../src/scans/pumpfun/assess.js';
import { assessToken } from '../../../src/scans/token/assess.js';
import { TOKEN_FLAGS } from '../../../src/scans/token/flags.js';
import type { TokenFacts } from '../../../src/scans/token-facts/model.js';
import { bundledEntries, bundledRegistry } from '../../../src/scans/verified/bundled.js';
import { buildRegistry } from '../../../src/scans/verified/registry.js';
import { findMetadataAddress } from '../../../src/solana/decoders/metaplex-metadata.js';
import { INITIAL_REAL_TOKEN_RESERVES } from '../../../src/solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM, TOKEN_METADATA_PROGRAM } from '../../../src/solana/programs.js';
import { evidenceOf, flagCoverage, flagEvidenceOf } from '../../helpers/flag-coverage.js';
import { holderAccounts, metaplexBytes, mintBytes, raw, SUPPLY } from '../../helpers/token-accounts.js';

const NOW = 1_800_000_000;
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address;
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN' as Address;
const WSOL = 'So11111111111111111111111111111111111111112' as Address;
const WSOL_2022 = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP' as Address;
const CODE = 'IMPERSONATES_VERIFIED_TOKEN';

interface Names {
  readonly name: string;
  readonly symbol: string;
}

describe('IMPERSONATES_VERIFIED_TOKEN', () => {
  const flags = flagCoverage({ [CODE]: TOKEN_FLAGS[CODE] });
  let copy: Address;
  let authority: Address;
  let owners: Address[];
  let tokenAccounts: Address[];

  before(async () => {
    const keys = await Promise.all(
      Array.from({ length: 42 }, async () => (await generateKeyPairSigner()).address),
    );
    [copy, authority] = keys as [Address, Address];
    owners = keys.slice(2, 22);
    tokenAccounts = keys.slice(22, 42);
  });

  /** A Token-2022 mint at `at` whose own metadata extension holds `names` (and no Metaplex account). */
  async function token2022(names: Names, at: Address = copy): Promise<TokenFacts> {
    const metadata: ExtensionArgs = {
      __kind: 'TokenMetadata',
      updateAuthority: none(),
      mint: at,
      name: names.name,
      symbol: names.symbol,
      uri: 'https://example.invalid/copy.json',
      additionalMetadata: new Map(),
    };
    const pointer: ExtensionArgs = { __kind: 'MetadataPointer', authority: none(), metadataAddress: at };
    const { owner, data } = mintBytes({ extensions: [pointer, metadata] });
    return factsOf(at, raw(at, owner, data), null);
  }

  /** An SPL Token mint at `at` with a Metaplex metadata account holding `names`. */
  async function metaplex(names: Names, at: Address = copy): Promise<TokenFacts> {
    const { owner, data } = mintBytes({});
    const bytes = metaplexBytes(at, authority, false, names);
    return factsOf(at, raw(at, owner, data), bytes);
  }

  async function factsOf(
    at: Address,
    mintAccount: TokenFacts['mintAccount'],
    metaplexData: Uint8Array | null,
  ): Promise<TokenFacts> {
    const metadataAddress = await findMetadataAddress(at);
    const spread = owners.map((owner) => ({ owner, amount: SUPPLY / 100n }));
    return {
      mint: at,
      mintAccount,
      metadataAddress,
      metadataAccount: metaplexData ? raw(metadataAddress, TOKEN_METADATA_PROGRAM, metaplexData) : null,
      extraAccounts: [],
      epoch: 800n,
      largestError: null,
      nowSeconds: NOW,
      history: {
        count: 40,
        oldest: { signature: 'creation', blockTime: NOW - 100 * 86_400 },
        truncated: false,
      },
      ...holderAccounts(at, mintAccount!.owner, spread, tokenAccounts),
    };
  }

  type Match = Record<string, unknown>;
  const matchesOf = (result: ScanResult) => flagEvidenceOf(result)[CODE]!.matches as Match[];

  it('an exact copy on Token-2022 ("USD Coin" / "USDC") names the verified mint, the field and both forms', async () => {
    const result = assessToken(await token2022({ name: 'USD Coin', symbol: 'USDC' }));
    const evidence = flags.raised(result, CODE, { verified_mints: [USDC] });
    const matches = evidence.matches as Match[];
    assert.deepEqual(
      matches.map((m) => [m.field, m.source, m.value, m.form, m.verified_field, m.verified_form]),
      [
        ['symbol', 'token-2022 metadata', 'USDC', 'usdc', 'symbol', 'usdc'],
        ['name', 'token-2022 metadata', 'USD Coin', 'usdcoin', 'name', 'usdcoin'],
      ],
    );
    assert.equal(matches[0]!.verified_mint, USDC);
    // High severity: with nothing else against it, the copy is no longer "low risk".
    assert.equal(result.risk_score, 0.6);
    assert.ok(result.reasoning.some((line) => line.startsWith(`${CODE} (+0.6)`) && line.includes('USDC')));
  });

  it('look-alike letters: Cyrillic Ѕ, Greek Ο, fullwidth letters and the digit 0 for O map to the same skeleton', async () => {
    for (const symbol of ['UЅDC', 'ＵＳＤＣ', 'UＳDC']) {
      const result = assessToken(await token2022({ name: 'Dollar Token', symbol }));
      flags.raised(result, CODE, { verified_mints: [USDC] });
      const [match] = matchesOf(result);
      assert.equal(match!.form, 'usdc', symbol);
      assert.equal(match!.value, symbol, 'the value is shown as the chain holds it');
    }
    const bonk = assessToken(await token2022({ name: 'Dog Money', symbol: 'BΟNK' })); // Greek capital omicron
    flags.raised(bonk, CODE, { verified_mints: ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'] });
    const orca = assessToken(await token2022({ name: 'Whale', symbol: '0RCA' }));
    flags.raised(orca, CODE, { verified_mints: ['orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE'] });
  });

  it('decorations: $, dots, spaces, zero-width characters and accents are set aside', async () => {
    for (const symbol of ['$USDC', 'U.S.D.C', 'U S D C', 'US\u200bDC', 'ÚSDC', 'usdc']) {
      const result = assessToken(await token2022({ name: 'Dollar Token', symbol }));
      flags.raised(result, CODE, { verified_mints: [USDC] });
      assert.equal(matchesOf(result)[0]!.form, 'usdc', symbol);
    }
  });

  it('a Metaplex copy on an SPL Token mint ("Jupiter" / "JUP")', async () => {
    const result = assessToken(await metaplex({ name: 'Jupiter', symbol: 'JUP' }));
    flags.raised(result, CODE, { verified_mints: [JUP] });
    assert.deepEqual(
      matchesOf(result).map((m) => [m.field, m.source]),
      [
        ['symbol', 'metaplex'],
        ['name', 'metaplex'],
      ],
    );
  });

  it('names that only resemble a verified one raise nothing: the rule is the same skeleton, not a distance', async () => {
    for (const symbol of ['USDC2', 'USDCat', 'JUPI', 'U', 'CLEAN']) {
      const result = assessToken(await token2022({ name: 'Sandbox Token', symbol }));
      flags.notRaised(result, CODE);
      assert.equal((evidenceOf(result).verified_registry as { copy: string }).copy, 'bundled');
    }
  });

  it('the real mint is never its own impersonator: its evidence says it is on the registry', async () => {
    const result = assessToken(await metaplex({ name: 'USD Coin', symbol: 'USDC' }, USDC));
    flags.notRaised(result, CODE);
    assert.deepEqual(evidenceOf(result).verified_token, {
      symbol: 'USDC',
      name: 'USD Coin',
      issuer: 'Circle',
      variant_of: null,
      listed_in: 'the bundled registry',
    });
  });

  it('a listed variant does not flag; the same names on any other mint do, naming both listed mints', async () => {
    const names = { name: 'Wrapped SOL', symbol: 'SOL' };
    const variant = assessToken(await token2022(names, WSOL_2022));
    flags.notRaised(variant, CODE);
    assert.equal((evidenceOf(variant).verified_token as { variant_of: string }).variant_of, 'SOL');
    const other = assessToken(await token2022(names));
    flags.raised(other, CODE, { verified_mints: [WSOL, WSOL_2022] });
  });

  it('invalid UTF-8 in a name is decoded without error and shown escaped (U+FFFD)', async () => {
    const facts = await metaplex({ name: 'XXUSDC', symbol: 'DOLLAR' });
    const bytes = new Uint8Array(facts.metadataAccount!.data);
    const at = Buffer.from(bytes).indexOf('XXUSDC');
    bytes.set([0xff, 0xfe], at); // not UTF-8
    const result = assessToken({ ...facts, metadataAccount: { ...facts.metadataAccount!, data: bytes } });
    flags.raised(result, CODE, { verified_mints: [USDC] });
    const name = matchesOf(result).find((m) => m.field === 'name')!;
    assert.equal(name.value, '\\u{FFFD}\\u{FFFD}USDC');
    assert.equal(name.form, 'usdc');
  });

  it('control, bidirectional and invisible characters are shown escaped, never raw', async () => {
    const symbol = '\u0007US\u202EDC\u200B\\';
    const result = assessToken(await token2022({ name: 'Dollar Token', symbol }));
    flags.raised(result, CODE, { verified_mints: [USDC] });
    const shown = matchesOf(result)[0]!.value as string;
    assert.equal(shown, '\\u{0007}US\\u{202E}DC\\u{200B}\\\\');
    for (const char of ['\u202E', '\u200B']) assert.ok(!JSON.stringify(result).includes(char));
  });

  it('a name of 60,000 characters is compared and shown bounded', async () => {
    const long = `USDC${'x'.repeat(60_000)}`;
    const result = assessToken(await token2022({ name: long, symbol: 'USDC' }));
    flags.raised(result, CODE, { verified_mints: [USDC] });
    assert.deepEqual(
      matchesOf(result).map((m) => m.field),
      ['symbol'],
      'the long name is another name: only the symbol matches',
    );
    const noMatch = assessToken(await token2022({ name: long, symbol: 'LONG' }));
    flags.notRaised(noMatch, CODE);
    assert.ok(JSON.stringify(result).length < 20_000, 'the evidence does not carry the long name');
    assert.match(String(result.summary), /^Token /);
  });

  it('a registry refreshed with a new entry flags its copies and says which copy it is', async () => {
    const listed = { mint: (await generateKeyPairSigner()).address, symbol: 'NEWT', name: 'Newt Protocol' };
    const refreshed = buildRegistry(bundledEntries(), [listed], {
      copy: 'refreshed',
      source: 'http://127.0.0.1:1/tokens',
      as_of: '2026-12-06T00:00:00.000Z',
      note: 'read at the latest refresh',
    });
    const facts = await token2022({ name: 'Newt', symbol: '$NEWT' });
    flags.notRaised(assessToken(facts), CODE);
    const result = assessToken(facts, undefined, null, null, refreshed);
    flags.raised(result, CODE, { verified_mints: [listed.mint] });
    assert.equal((evidenceOf(result).verified_registry as { copy: string }).copy, 'refreshed');
    assert.equal(bundledRegistry().copy.copy, 'bundled');
  });

  it('/scan/pumpfun runs the same check on a coin on its bonding curve (pump.fun coins copy tickers most)', async () => {
    const token = await metaplex({ name: 'Bonk', symbol: 'BONK' });
    const [curveAddress, poolAddress, creator] = await Promise.all(
      [0, 1, 2].map(async () => (await generateKeyPairSigner()).address),
    );
    const curve = encodeBondingCurve({
      virtualTokenReserves: 1_073_000_000_000_000n,
      virtualQuoteReserves: 30_000_000_000n,
      realTokenReserves: INITIAL_REAL_TOKEN_RESERVES,
      realQuoteReserves: 0n,
      tokenTotalSupply: SUPPLY,
      complete: false,
      creator: creator!,
    });
    const result = assessPumpfun({
      token,
      curveAddress: curveAddress!,
      curve: raw(curveAddress!, PUMP_PROGRAM, curve),
      poolAddress: poolAddress!,
      pool: null,
      launches: { curves: [], error: null },
    });
    assert.ok(!result.flags.includes('NOT_PUMPFUN_MINT'), `a pump.fun coin: [${result.flags}]`);
    flags.raised(result, CODE, { verified_mints: ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'] });
  });

  it('every flag of this file was raised', () => flags.assertEveryFlagRaised());
});
