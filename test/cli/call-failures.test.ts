/**
 * `risk-scan call` whose environment fails it ends in one line on stderr saying what went wrong
 * and what to do, with exit code 1 (2 for its command line or keypair file), never a stack trace:
 * an API or RPC that is down or hangs, a keypair file that is missing or not a Solana CLI keypair,
 * a payer short of USDC, an offer this client cannot pay, a facilitator that refuses the payment.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import { generateKeypairWithBytes, writeKeypairFile } from '../../src/client/keypair-file.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { faultyFetch } from '../helpers/faulty-facilitator-fetch.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { assertOneLine, closedPort, riskScan, riskScanHere, silentServer, tempDir } from './run-cli.js';

const dir = tempDir('call-failures-');
const SUBJECT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keypair file in Solana CLI format, funded with `usdc` units on `sandbox` when given. */
async function keypairFile(name: string, sandbox?: PaidSandbox, usdc = 0n) {
  const keypair = await generateKeypairWithBytes();
  const path = join(dir, `${name}.json`);
  await writeKeypairFile(path, keypair);
  if (sandbox && usdc > 0n)
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [{ owner: keypair.signer.address, amount: usdc }]);
  return { path, address: keypair.signer.address };
}

/** A SANDBOX_DIR holding a sandbox.json as the sandbox writes it. */
function sandboxDir(
  name: string,
  manifest: { apiUrl: string; rpcUrl: string; payer: { address: string; keypair: string } },
) {
  const sandbox = join(dir, name);
  mkdirSync(sandbox, { recursive: true });
  writeFileSync(join(sandbox, 'sandbox.json'), JSON.stringify({ mode: 'sandbox', ...manifest }));
  return sandbox;
}

describe('risk-scan call without an API', { concurrency: 4 }, () => {
  let funded: { path: string; address: Address };
  before(async () => {
    funded = await keypairFile('offline-payer');
  });

  it('the sandbox it names is not running: exit 1, one line naming the URL, the manifest and --api', async () => {
    const api = `http://127.0.0.1:${await closedPort()}`;
    const rpc = `http://127.0.0.1:${await closedPort()}`;
    const sandbox = sandboxDir('stale', {
      apiUrl: api,
      rpcUrl: rpc,
      payer: { address: funded.address, keypair: funded.path },
    });
    const ended = await riskScan(['call', `/scan/wallet/${SUBJECT}`], { SANDBOX_DIR: sandbox });
    assertOneLine(
      ended,
      1,
      `Cannot reach the API at ${api} (from ${join(sandbox, 'sandbox.json')}): connection refused (nothing listens there). Start the sandbox (npm start), or pass --api URL.`,
    );
  });

  it('--api names a port nothing listens on: exit 1, one line naming the URL and --api', async () => {
    const api = `http://127.0.0.1:${await closedPort()}`;
    const ended = await riskScan([
      'call',
      `/scan/wallet/${SUBJECT}`,
      '--api',
      api,
      '--rpc',
      api,
      '--keypair',
      funded.path,
    ]);
    assertOneLine(
      ended,
      1,
      `Cannot reach the API at ${api}: connection refused (nothing listens there). Check that the API runs there, or pass --api URL.`,
    );
  });

  it('an API that never answers: exit 1 after --timeout, one line naming the URL and the options', async () => {
    const hanging = await silentServer();
    try {
      const ended = await riskScan([
        'call',
        `/scan/wallet/${SUBJECT}`,
        ...['--api', hanging.url, '--rpc', hanging.url, '--keypair', funded.path, '--timeout', '1'],
      ]);
      assertOneLine(
        ended,
        1,
        `The API at ${hanging.url} did not answer within 1 s. Check that it runs there, pass --api URL, or wait longer with --timeout SECONDS.`,
      );
    } finally {
      await hanging.close();
    }
  });

  it('no sandbox and no --api: exit 2, one line', async () => {
    const ended = await riskScan(['call', `/scan/wallet/${SUBJECT}`], { SANDBOX_DIR: join(dir, 'none') });
    assertOneLine(
      ended,
      2,
      'No API URL: pass --api URL, or start the sandbox first (npm start, or npx risk-scan sandbox).',
    );
  });

  it('--verbose adds the cause chain after the line', async () => {
    const api = `http://127.0.0.1:${await closedPort()}`;
    const ended = await riskScan([
      'call',
      `/scan/wallet/${SUBJECT}`,
      '--api',
      api,
      '--rpc',
      api,
      '--keypair',
      funded.path,
      '--verbose',
    ]);
    assert.equal(ended.code, 1);
    const [first, ...rest] = ended.stderr.trim().split('\n');
    assert.match(first!, /^Cannot reach the API at /);
    assert.match(rest.join('\n'), /caused by: .*fetch failed/);
    assert.match(rest.join('\n'), /ECONNREFUSED/);
  });
});

describe('risk-scan call with a keypair file it cannot use', { concurrency: 4 }, () => {
  const api = 'http://127.0.0.1:9';
  // Refused before anything is sent: run by runCli in this process (see riskScanHere).
  const callWith = (keypair: string) =>
    riskScanHere(['call', `/scan/wallet/${SUBJECT}`, '--api', api, '--rpc', api, '--keypair', keypair]);
  const format =
    'Pass --keypair FILE with a Solana CLI keypair (a JSON array of 64 bytes, as `solana-keygen new -o FILE` writes).';

  it('missing: exit 2, one line', async () => {
    const path = join(dir, 'missing.json');
    assertOneLine(await callWith(path), 2, `No keypair file at ${path}. ${format}`);
  });

  it('not JSON: exit 2, one line', async () => {
    const path = join(dir, 'not-json.json');
    writeFileSync(path, 'my seed phrase is ...');
    assertOneLine(await callWith(path), 2, `${path} is not a Solana CLI keypair: it is not JSON. ${format}`);
  });

  it('JSON, but not 64 bytes (a public key, say): exit 2, one line', async () => {
    const path = join(dir, 'short.json');
    writeFileSync(path, JSON.stringify(Array.from({ length: 32 }, () => 7)));
    assertOneLine(
      await callWith(path),
      2,
      `${path} is not a Solana CLI keypair: it must hold a JSON array of 64 bytes. ${format}`,
    );
  });

  it("64 bytes whose public half is not the secret half's: exit 2, one line", async () => {
    const path = join(dir, 'mismatched.json');
    writeFileSync(path, JSON.stringify(Array.from({ length: 64 }, (_, i) => i)));
    assertOneLine(
      await callWith(path),
      2,
      `${path} is not a Solana CLI keypair: its last 32 bytes are not the public key of its first 32. ${format}`,
    );
  });
});

describe('risk-scan call against a running API', { concurrency: 4 }, () => {
  let sandbox: PaidSandbox;
  let funded: { path: string; address: Address };
  let stub: Server;
  let stubUrl: string;
  const program = () => `/scan/program/${SUBJECT}`;
  const args = (api: string, keypair: string, more: string[] = []) => [
    'call',
    program(),
    ...['--api', api, '--rpc', sandbox.rpcServer.url, '--keypair', keypair, ...more],
  ];

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    funded = await keypairFile('funded', sandbox, 5_000_000n);
    // An API whose 402 offers only a payment on Base, or carries no PAYMENT-REQUIRED at all.
    stub = createServer((req, res) => {
      if (req.url?.startsWith('/no-header')) {
        res.writeHead(402, { 'content-type': 'application/json' }).end('{"error":"pay me"}');
        return;
      }
      const header = encodePaymentRequiredHeader({
        x402Version: 2,
        resource: { url: `http://stub${req.url}`, description: 'stub', mimeType: 'application/json' },
        accepts: [
          {
            scheme: 'exact',
            network: 'eip155:8453',
            asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
            amount: '10000',
            payTo: '0x0000000000000000000000000000000000000001',
            maxTimeoutSeconds: 60,
            extra: {},
          },
        ],
      });
      res.writeHead(402, { 'content-type': 'application/json', 'payment-required': header }).end('{}');
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  after(async () => {
    await sandbox?.close();
    await new Promise((resolve) => stub?.close(resolve));
  });

  it('--rpc names a port nothing listens on: exit 1, one line naming the URL and --rpc; nothing paid', async () => {
    const rpc = `http://127.0.0.1:${await closedPort()}`;
    const ended = await riskScan([
      'call',
      program(),
      '--api',
      sandbox.url,
      '--rpc',
      rpc,
      '--keypair',
      funded.path,
    ]);
    assertOneLine(
      ended,
      1,
      `Cannot reach the Solana RPC at ${rpc}: connection refused (nothing listens there). Pass --rpc URL (the sandbox's is rpcUrl in sandbox.json). Nothing was paid.`,
    );
  });

  it('an RPC that never answers: exit 1 after --timeout, one line', async () => {
    const hanging = await silentServer();
    try {
      const ended = await riskScan([
        'call',
        program(),
        ...['--api', sandbox.url, '--rpc', hanging.url, '--keypair', funded.path, '--timeout', '1'],
      ]);
      assertOneLine(
        ended,
        1,
        `The Solana RPC at ${hanging.url} did not answer within 1 s. Pass --rpc URL with a responsive RPC, or wait longer with --timeout SECONDS. Nothing was paid.`,
      );
    } finally {
      await hanging.close();
    }
  });

  it('a payer with no USDC, in the sandbox: says the price, and to pay with the sandbox payer', async () => {
    const empty = await keypairFile('empty', sandbox);
    const sandboxHome = sandboxDir('sandbox-other-payer', {
      apiUrl: sandbox.url,
      rpcUrl: sandbox.rpcServer.url,
      payer: { address: funded.address, keypair: funded.path },
    });
    const ended = await riskScan(['call', program(), '--keypair', empty.path], { SANDBOX_DIR: sandboxHome });
    assertOneLine(
      ended,
      1,
      `The payer ${empty.address} holds 0 USDC and this call costs 1 USDC. The sandbox has no USDC faucet: pay with its funded test payer (leave out --keypair; it is ${funded.path}). Nothing was paid.`,
    );
  });

  it("the sandbox's own payer, spent: says the price, and that a restart funds a new one", async () => {
    const spent = await keypairFile('spent', sandbox, 250_000n);
    const sandboxHome = sandboxDir('sandbox-spent', {
      apiUrl: sandbox.url,
      rpcUrl: sandbox.rpcServer.url,
      payer: { address: spent.address, keypair: spent.path },
    });
    const ended = await riskScan(['call', program()], { SANDBOX_DIR: sandboxHome });
    assertOneLine(
      ended,
      1,
      `The payer ${spent.address} holds 0.25 USDC and this call costs 1 USDC. The sandbox has no USDC faucet: restart it (npm start), and it funds a new test payer with 1000 test USDC. Nothing was paid.`,
    );
    assert.equal(await sandbox.usdcBalance(spent.address), 250_000n);
  });

  it('a payer short of USDC, outside the sandbox: says how much to send', async () => {
    const half = await keypairFile('half', sandbox, 500_000n);
    const ended = await riskScan(args(sandbox.url, half.path));
    assertOneLine(
      ended,
      1,
      `The payer ${half.address} holds 0.5 USDC and this call costs 1 USDC. Send at least 1 USDC to ${half.address} on Solana mainnet, or pass --keypair FILE of a funded payer. Nothing was paid.`,
    );
  });

  it('a facilitator that refuses the payment: exit 1, one line with its reason', async () => {
    const refusing = await sandbox.startInstance({ facilitatorFetch: faultyFetch({ settle: 'refused' }) });
    const payer = await keypairFile('refused', sandbox, 2_000_000n);
    const ended = await riskScan(args(refusing.url, payer.path));
    assertOneLine(
      ended,
      1,
      'The payment was refused: settlement failed: transaction_simulation_failed; nothing was charged.',
    );
    assert.equal(await sandbox.usdcBalance(payer.address), 2_000_000n);
  });

  it('an offer with no fee payer (the API reaches no facilitator): exit 1, one line saying why', async () => {
    const cut = await sandbox.startInstance(
      {},
      { FACILITATOR_URLS: 'http://127.0.0.1:9', FACILITATOR_TIMEOUT_MS: '500' },
    );
    const ended = await riskScan(args(cut.url, funded.path));
    assertOneLine(
      ended,
      1,
      /^The API asks for a payment this client cannot make: its offer names no fee payer \(extra\.feePayer\), which a Solana payment needs: none of the API's facilitators answered it \(the API says: .+\)\. Try again later\. Nothing was paid\.$/,
    );
  });

  it('an offer on another chain: exit 1, one line naming what is offered', async () => {
    const ended = await riskScan(args(stubUrl, funded.path));
    assertOneLine(
      ended,
      1,
      'The API asks for a payment this client cannot make: it offers exact on eip155:8453, and this client pays only the "exact" scheme on Solana mainnet (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp). Nothing was paid.',
    );
  });

  it('a 402 without PAYMENT-REQUIRED: exit 1, one line', async () => {
    const ended = await riskScan([
      'call',
      '/no-header',
      '--api',
      stubUrl,
      '--rpc',
      stubUrl,
      '--keypair',
      funded.path,
    ]);
    assertOneLine(
      ended,
      1,
      new RegExp(`^The API at ${escapeRegExp(stubUrl)} answered 402 without a PAYMENT-REQUIRED header`),
    );
  });
});
