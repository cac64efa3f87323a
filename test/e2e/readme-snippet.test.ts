/** The README's "Paying from an agent" snippet, run verbatim against a sandbox. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { generateKeypairWithBytes, writeKeypairFile } from '../../src/client/keypair-file.js';
import { fundUsdc } from '../../src/sandbox/usdc.js';
import { selling } from '../../src/service/index.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { probeScanners } from '../helpers/probe-scanner.js';

const run = promisify(execFile);

function readmeSnippet(): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = /<!-- agent-snippet:start -->\n```ts\n([\s\S]*?)```\n<!-- agent-snippet:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README has no agent snippet');
  return block[1];
}

describe('README: paying from an agent', () => {
  let sandbox: PaidSandbox;
  const dir = join(process.cwd(), '.tmp', `snippet-${process.pid}`);
  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(probeScanners()) });
    mkdirSync(dir, { recursive: true });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('runs unchanged with the official client, pays 0.30 USDC and prints the scan', async () => {
    const keypair = await generateKeypairWithBytes();
    await writeKeypairFile(join(dir, 'payer.json'), keypair);
    await fundUsdc(sandbox.chain, sandbox.usdcAuthority, [
      { owner: keypair.signer.address, amount: 1_000_000n },
    ]);
    writeFileSync(join(dir, 'pay-from-agent.mts'), readmeSnippet());
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'pay-from-agent.mts')], {
      env: {
        ...process.env,
        API_URL: sandbox.url,
        RPC_URL: sandbox.rpcServer.url,
        KEYPAIR: join(dir, 'payer.json'),
      },
      timeout: 60_000,
    });
    const [first, second] = stdout.trim().split('\n');
    assert.match(first ?? '', /^200 0\.\d+ /);
    const signature = (second ?? '').replace('settled in ', '');
    assert.ok(sandbox.chain.transaction(signature), 'the printed settlement is on chain');
    assert.equal(await sandbox.usdcBalance(keypair.signer.address), 700_000n);
  });
});
