/** `risk-scan call` pays for one call and prints the result; it refuses to overspend. */
import assert from 'node:assert/strict';
import { exec, execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Address } from '@solana/kit';
import { POST_ENDPOINTS } from '../../src/catalog.js';
import { generateKeypairWithBytes, writeKeypairFile } from '../../src/client/keypair-file.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { startTamperingProxy } from '../helpers/tampering-proxy.js';
import { HANG_MS } from './run-cli.js';

const execute = promisify(execFile);
const run = promisify(exec);
const cli = (args: string[]) =>
  execute(process.execPath, ['bin/risk-scan.mjs', ...args], { timeout: HANG_MS }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

describe('risk-scan call', () => {
  let sandbox: PaidSandbox;
  let keypairPath: string;
  let payer: Address;
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    const dir = join(process.cwd(), '.tmp', `cli-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const keypair = await generateKeypairWithBytes();
    keypairPath = join(dir, 'payer.json');
    payer = keypair.signer.address;
    await writeKeypairFile(keypairPath, keypair);
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [{ owner: payer, amount: 5_000_000n }]);
  });
  after(async () => {
    await sandbox?.close();
  });

  const base = () => ['--api', sandbox.url, '--rpc', sandbox.rpcServer.url, '--keypair', keypairPath];

  it('pays and prints the scan with its settlement', async () => {
    const { code, stdout, stderr } = await cli(['call', `/scan/program/${sandbox.payTo}`, ...base()]);
    assert.equal(code, 0, stdout);
    assert.match(stderr, /^HTTP 200 — paid 1\.00 USDC$/m);
    assert.match(stderr, /"success":true/);
    assert.match(stdout, /"risk_score":/);
    assert.equal(await sandbox.usdcBalance(payer), 4_000_000n);
  });

  it('refuses to pay more than --max-usd, and pays nothing', async () => {
    const { code, stderr } = await cli([
      'call',
      `/scan/program/${sandbox.payTo}`,
      '--max-usd',
      '0.5',
      ...base(),
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /costs 1 USDC, more than --max-usd 0.5; nothing was paid/);
    assert.equal(await sandbox.usdcBalance(payer), 4_000_000n);
  });

  it('prints a 400 for a malformed subject without paying', async () => {
    const { code, stdout, stderr } = await cli(['call', '/scan/token/not-an-address', ...base()]);
    assert.equal(code, 1);
    assert.match(stderr, /^HTTP 400$/m);
    assert.match(stdout, /invalid_input/);
  });

  it('explains a missing keypair file', async () => {
    const { code, stderr } = await cli([
      'call',
      `/scan/wallet/${payer}`,
      '--api',
      sandbox.url,
      '--rpc',
      sandbox.rpcServer.url,
      '--keypair',
      '/nonexistent.json',
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /^No keypair file at \/nonexistent.json\. /);
  });

  it('--data POSTs a JSON body: pays /simulate/tx once for the catalog example', async () => {
    const before = await sandbox.usdcBalance(payer);
    const data = JSON.stringify(POST_ENDPOINTS[0]!.body.example);
    const { code, stdout, stderr } = await cli(['call', '/simulate/tx', '--data', data, ...base()]);
    assert.equal(code, 0, stdout);
    assert.match(stderr, /^HTTP 200 — paid 0\.05 USDC$/m);
    assert.match(stdout, /"risk_score":/);
    assert.equal(await sandbox.usdcBalance(payer), before - 50_000n);
  });

  it('--data that is not a transaction is a 400 before payment, and pays nothing', async () => {
    const before = await sandbox.usdcBalance(payer);
    const { stdout, stderr } = await cli([
      'call',
      '/simulate/tx',
      '--data',
      '{"transaction":"AAAA"}',
      ...base(),
    ]);
    assert.match(stderr, /^HTTP 400$/m);
    assert.match(stdout, /not a transaction/);
    assert.equal(await sandbox.usdcBalance(payer), before);
  });

  it('writes only the body to stdout: piped into a JSON parser, it parses', async () => {
    const parse = `'${process.execPath}' -e 'const b = JSON.parse(require("fs").readFileSync(0, "utf8")); process.stdout.write(typeof b.risk_score)'`;
    const args = ['call', `/scan/program/${sandbox.payTo}`, ...base()].map((a) => `'${a}'`).join(' ');
    const { stdout } = await run(`'${process.execPath}' bin/risk-scan.mjs ${args} | ${parse}`, {
      timeout: HANG_MS,
    });
    assert.equal(stdout, 'number');
  });

  it('--include writes the status and the settlement to stdout before the body', async () => {
    const { code, stdout, stderr } = await cli([
      'call',
      `/scan/program/${sandbox.payTo}`,
      '--include',
      ...base(),
    ]);
    assert.equal(code, 0, stderr);
    const [status, settlement, ...body] = stdout.split('\n');
    assert.equal(status, 'HTTP 200 — paid 1.00 USDC');
    assert.match(settlement!, /^settlement: \{.*"success":true/);
    assert.equal(typeof JSON.parse(body.join('\n')).risk_score, 'number');
    assert.equal(stderr, '');
  });

  it('--pay-to another payee: the 402 is refused, exit 1, nothing paid', async () => {
    const before = await sandbox.usdcBalance(payer);
    const other = 'So11111111111111111111111111111111111111112';
    const { code, stderr } = await cli(['call', `/scan/wallet/${payer}`, '--pay-to', other, ...base()]);
    assert.equal(code, 1, stderr);
    assert.match(
      stderr,
      new RegExp(
        `names the payee ${sandbox.payTo}, and this client pays only ${other}\\. Nothing was paid\\.`,
      ),
    );
    assert.equal(await sandbox.usdcBalance(payer), before);
  });

  it("--pay-to the service's payee pays", async () => {
    const before = await sandbox.usdcBalance(payer);
    const { code, stderr } = await cli([
      'call',
      `/scan/wallet/${payer}`,
      '--pay-to',
      sandbox.payTo,
      ...base(),
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(await sandbox.usdcBalance(payer), before - 20_000n);
  });

  it('a result altered on the way fails its signature: exit 1, one line, no result printed', async () => {
    const proxy = await startTamperingProxy(sandbox.url);
    try {
      proxy.set({ kind: 'body-byte' });
      const args = ['--api', proxy.url, '--rpc', sandbox.rpcServer.url, '--keypair', keypairPath];
      const { code, stdout, stderr } = await cli(['call', `/scan/wallet/${payer}`, ...args]);
      assert.equal(code, 1, stderr);
      assert.match(
        stderr.trim(),
        /^The result does not match its X-Signature: it was altered, or not signed by the service\. It was paid for, and is not used\.$/,
      );
      assert.equal(stdout, '');
    } finally {
      await proxy.close();
    }
  });
});
