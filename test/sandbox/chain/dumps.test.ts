import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Address } from '@solana/kit';
import { fetchMint, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { loadAccountFile, loadAccountsDir } from '../../../src/sandbox/chain/dumps.js';
import { type Sandbox, startSandbox } from '../harness.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/mainnet/accounts', import.meta.url));
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address;

function programData(data: Uint8Array): { slot: bigint; authority: string | null } {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  assert.equal(view.getUint32(0, true), 3, 'ProgramData tag');
  const authority = data[12] === 1 ? data.subarray(13, 45) : null;
  return { slot: view.getBigUint64(4, true), authority: authority && Buffer.from(authority).toString('hex') };
}

describe('sandbox chain: account dumps', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  it('loads the real USDC mint dump and serves it to kit unchanged', async () => {
    await loadAccountFile(sandbox.chain, join(FIXTURES, 'usdc-mint.json'));
    const mint = await fetchMint(sandbox.rpc, USDC);
    assert.equal(mint.programAddress, TOKEN_PROGRAM_ADDRESS);
    assert.equal(mint.data.decimals, 6);
    assert.equal(mint.data.supply, 9_308_841_079_006_125n);
    assert.deepEqual(mint.data.mintAuthority, {
      __option: 'Some',
      value: 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG',
    });
    assert.deepEqual(mint.data.freezeAuthority, {
      __option: 'Some',
      value: '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar',
    });
    const supply = await sandbox.rpc.getTokenSupply(USDC).send();
    assert.equal(supply.value.uiAmountString, '9308841079.006125');
  });

  it('loads a dump at another address (--account ADDRESS FILE) and funds 0-lamport placeholders', async () => {
    const target = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' as Address;
    const loaded = await loadAccountFile(
      sandbox.chain,
      join(FIXTURES, 'pump-v2-t22-mint-3xM2iMg4.json'),
      target,
    );
    const info = await sandbox.rpc.getAccountInfo(target, { encoding: 'base64' }).send();
    assert.ok(info.value, 'a placeholder dump still creates an account');
    assert.equal(
      info.value.lamports,
      await sandbox.rpc.getMinimumBalanceForRentExemption(info.value.space).send(),
    );
    assert.equal(loaded.lamports, info.value.lamports);
    assert.equal(info.value.owner, 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
  });

  it('loads a whole accounts dir, programs with their programdata, as PROVENANCE.md lists them', async () => {
    const started = performance.now();
    const loaded = await loadAccountsDir(sandbox.chain, FIXTURES);
    const elapsed = performance.now() - started;
    assert.ok(loaded.length >= 40);
    console.log(`loaded ${loaded.length} dumps in ${elapsed.toFixed(0)} ms`);
    const data = await sandbox.rpc
      .getAccountInfo('7EEWx5mzzsYjU1GK2Y5eP3ngQGaRit8wJhmkkoQMnouA' as Address, { encoding: 'base64' })
      .send();
    const bytes = Buffer.from(data.value!.data[0], 'base64');
    const { slot, authority } = programData(bytes);
    assert.equal(slot, 257_414_016n);
    const bs58 = (await import('bs58')).default;
    assert.equal(bs58.encode(Buffer.from(authority!, 'hex')), 'HanXbAh9AngpUuzxJVH3FoQ9mEu3qPHQ62u6JtuoR7VS');
    const program = await sandbox.rpc
      .getAccountInfo('stkitrT1Uoy18Dk1fTrgPw8W6MVzoCfYoAFT4MLsmhq' as Address, { encoding: 'base64' })
      .send();
    assert.equal(program.value?.executable, true);
    assert.equal(program.value?.owner, 'BPFLoaderUpgradeab1e11111111111111111111111');
  });
});
