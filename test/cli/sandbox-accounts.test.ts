/**
 * `risk-scan sandbox --accounts-dir DIR --account ADDRESS FILE`: hand-made account dumps go on
 * the sandbox chain, are listed in sandbox.json, and a paid /scan/token reads them.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createKeyPairSignerFromBytes, generateKeyPairSigner } from '@solana/kit';
import { getMintEncoder, getTokenEncoder } from '@solana-program/token';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { TEST_SNAPSHOT_DIR } from '../helpers/seeded-chain.js';
import { jsonOf } from '../helpers/service.js';
import { assertOneLine, riskScan, riskScanHere, tempDir } from './run-cli.js';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

/** A dump in the shape `solana account --output json` writes. */
function dump(pubkey: string, owner: string, data: Uint8Array): string {
  return JSON.stringify({
    pubkey,
    account: {
      lamports: 0, // a placeholder: the sandbox gives it the rent-exempt minimum
      data: [Buffer.from(data).toString('base64'), 'base64'],
      owner,
      executable: false,
      rentEpoch: 0,
      space: data.length,
    },
  });
}

/**
 * Resolves once `file` exists; rejects if `child` exits first (a sandbox that failed to start
 * would otherwise be waited for until the file's timeout). No clock: the file or the exit ends it.
 */
function fileOrExit(file: string, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let exitCode: number | null | undefined;
    child.once('exit', (code) => {
      exitCode = code;
    });
    const look = () => {
      if (existsSync(file)) resolve();
      else if (exitCode !== undefined)
        reject(new Error(`the sandbox exited (${exitCode}) before writing ${file}`));
      else setTimeout(look, 100);
    };
    look();
  });
}

describe('risk-scan sandbox loading account dumps', () => {
  const work = tempDir('sandbox-accounts-');
  const sandboxDir = join(work, 'sandbox');
  const accountsDir = join(work, 'accounts');
  let child: ChildProcess;
  let mint: string;
  let otherMint: string;
  let authority: string;

  before(async () => {
    mkdirSync(accountsDir);
    const [mintKey, otherKey, owner, tokenAccount, auth] = await Promise.all(
      Array.from({ length: 5 }, () => generateKeyPairSigner()),
    );
    [mint, otherMint, authority] = [mintKey!.address, otherKey!.address, auth!.address];
    const mintData = (mintAuthority: string | null) =>
      new Uint8Array(
        getMintEncoder().encode({
          mintAuthority: mintAuthority as never,
          supply: 1_000_000_000n,
          decimals: 6,
          isInitialized: true,
          freezeAuthority: null,
        }),
      );
    const holding = new Uint8Array(
      getTokenEncoder().encode({
        mint: mint as never,
        owner: owner!.address,
        amount: 1_000_000_000n,
        delegate: null,
        state: 1,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      }),
    );
    writeFileSync(join(accountsDir, 'mint.json'), dump(mint, TOKEN_PROGRAM, mintData(authority)));
    writeFileSync(join(accountsDir, 'holding.json'), dump(tokenAccount!.address, TOKEN_PROGRAM, holding));
    // --account writes a dump at the address given, whatever its own pubkey says.
    writeFileSync(join(work, 'renounced.json'), dump(mint, TOKEN_PROGRAM, mintData(null)));
    child = spawn(
      process.execPath,
      [
        'bin/risk-scan.mjs',
        'sandbox',
        '--ports',
        'auto',
        '--accounts-dir',
        accountsDir,
        '--account',
        otherMint,
        join(work, 'renounced.json'),
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          SANDBOX_DIR: sandboxDir,
          // The seeded chain restored from the tests' snapshot (the dumps are written over it after).
          SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
          LOG_LEVEL: 'warn',
          RISK_SCAN_FROM_SOURCE: '1',
        },
        stdio: 'ignore',
      },
    );
    // The manifest is written once everything listens.
    await fileOrExit(join(sandboxDir, 'sandbox.json'), child);
  });
  after(() => {
    child?.kill('SIGTERM');
  });

  it('lists the loaded accounts as subjects in sandbox.json, each with the scan that fits it', () => {
    const manifest = JSON.parse(readFileSync(join(sandboxDir, 'sandbox.json'), 'utf8'));
    const loaded = manifest.subjects.filter((s: { name: string }) => s.name.startsWith('loaded:'));
    const byName = Object.fromEntries(loaded.map((s: { name: string }) => [s.name, s]));
    assert.equal(byName['loaded:mint.json'].address, mint);
    assert.equal(byName['loaded:mint.json'].kind, 'token');
    assert.equal(byName['loaded:holding.json'].kind, 'account');
    assert.equal(byName['loaded:renounced.json'].address, otherMint);
    assert.equal(byName['loaded:renounced.json'].kind, 'token');
    assert.ok(manifest.subjects.length > loaded.length, 'the seeded subjects are still there');
  });

  it('a paid /scan/token of a loaded mint reads its bytes', async () => {
    const manifest = JSON.parse(readFileSync(join(sandboxDir, 'sandbox.json'), 'utf8'));
    const payer = await createKeyPairSignerFromBytes(
      new Uint8Array(JSON.parse(readFileSync(manifest.payer.keypair, 'utf8'))),
    );
    const client = new x402Client().register(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      new ExactSvmScheme(payer, { rpcUrl: manifest.rpcUrl }),
    );
    const paying = wrapFetchWithPayment(fetch, client);
    const live = await paying(`${manifest.apiUrl}/scan/token/${mint}`);
    const liveBody = await jsonOf(live);
    assert.equal(live.status, 200, JSON.stringify(liveBody));
    assert.ok(liveBody.flags.includes('MINT_AUTHORITY_ACTIVE'), 'the hand-made mint authority is seen');
    assert.ok(JSON.stringify(liveBody.evidence).includes(authority), 'named in evidence');
    const renounced = await jsonOf(await paying(`${manifest.apiUrl}/scan/token/${otherMint}`));
    assert.ok(
      !renounced.flags.includes('MINT_AUTHORITY_ACTIVE'),
      'the file given with --account, at its address',
    );
  });

  it('a file that is not an account dump: exit 2, one line naming it', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{"not":"a dump"}');
    const ended = await riskScan(['sandbox', '--ports', 'auto', '--account', mint, bad], {
      SANDBOX_DIR: join(work, 'x'),
    });
    assert.equal(ended.code, 2);
    assert.match(ended.stderr.trim(), /^Cannot load --account \w+ .*bad\.json: .*not a solana account dump/);
    assert.doesNotMatch(ended.stderr, /^ {4}at /m);
  });

  it('a dump of the real USDC mint: exit 2, one line naming the account and the file', async () => {
    const dir = join(work, 'with-usdc');
    mkdirSync(dir);
    copyFileSync(join('fixtures', 'mainnet', 'accounts', 'usdc-mint.json'), join(dir, 'usdc-mint.json'));
    const ended = await riskScan(['sandbox', '--ports', 'auto', '--accounts-dir', dir], {
      SANDBOX_DIR: join(work, 'y'),
    });
    assertOneLine(
      ended,
      2,
      /^Cannot load .*usdc-mint\.json: EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v is the sandbox's USDC mint .*; leave that dump out$/,
    );
  });

  // Refused before the sandbox starts: run by runCli in this process (see riskScanHere).
  it('an unknown option: exit 2 with the usage hint; --account without its file: exit 2', async () => {
    const bogus = await riskScanHere(['sandbox', '--bogus']);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /Unknown option '--bogus'.*risk-scan --help/);
    const half = await riskScanHere(['sandbox', '--account', mint]);
    assert.equal(half.code, 2);
    assert.match(half.stderr.trim(), /^--account takes an address and a file/);
  });
});
