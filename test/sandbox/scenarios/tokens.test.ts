import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getMintToCheckedInstruction } from '@solana-program/token';
import { subject, type TokenExpect, usdcMintAuthority } from '../../../src/sandbox/scenarios/index.js';
import { usdcAccountOf } from '../../../src/sandbox/usdc.js';
import { decodeMetadata, findMetadataAddress } from '../../../src/solana/decoders/metaplex-metadata.js';
import { type DecodedMint, decodeMint } from '../../../src/solana/decoders/mint.js';
import { decodeTokenAccount } from '../../../src/solana/decoders/token-account.js';
import { TOKEN_METADATA_PROGRAM, USDC_MINT } from '../../../src/solana/programs.js';
import { accountBytes, type SeededSandbox, startSeededSandbox } from './seeded-sandbox.js';

let sandbox: SeededSandbox;
const LARGEST_ACCOUNTS_LIMIT = 20;

async function mintOf(address: string): Promise<DecodedMint> {
  const account = await accountBytes(sandbox, address);
  const mint = decodeMint(account.data, account.owner);
  assert.ok(mint.ok, `${address} decodes as a mint`);
  return mint.value;
}

/** Holders read back over RPC: the largest accounts, their owners decoded, and the supply. */
async function holdersOf(mint: string) {
  const largest = await sandbox.rpc.getTokenLargestAccounts(mint as Address).send();
  const holders = [];
  for (const entry of largest.value) {
    const account = await accountBytes(sandbox, entry.address);
    const decoded = decodeTokenAccount(account.data, account.owner);
    assert.ok(decoded.ok);
    assert.equal(decoded.value.mint, mint);
    holders.push({
      owner: decoded.value.owner,
      tokenAccount: entry.address,
      amount: decoded.value.amount,
      state: decoded.value.state,
    });
  }
  const supply = BigInt((await sandbox.rpc.getTokenSupply(mint as Address).send()).value.amount);
  return { holders, supply };
}

/** The common checks: authorities by option tag, supply, decimals, extensions, holders against the manifest. */
async function checkToken(
  name: string,
): Promise<{ address: string; expect: TokenExpect; mint: DecodedMint }> {
  const { address, expect } = subject(sandbox.manifest, 'token', name);
  const mint = await mintOf(address);
  assert.equal(mint.program, expect.program);
  assert.equal(mint.mintAuthority, expect.mintAuthority, `${name} mint authority`);
  assert.equal(mint.freezeAuthority, expect.freezeAuthority, `${name} freeze authority`);
  assert.equal(mint.decimals, expect.decimals);
  assert.equal(mint.supply.toString(), expect.supply);
  assert.deepEqual(
    mint.extensions.present.map((entry) => entry.name),
    expect.extensions,
  );
  assert.ok(mint.extensions.tlvComplete);
  const { holders, supply } = await holdersOf(address);
  assert.equal(supply, mint.supply);
  const funded = holders.filter((holder) => holder.amount > 0n);
  // getTokenLargestAccounts answers the 20 largest accounts, as mainnet nodes do.
  assert.deepEqual(
    funded.map(({ owner, tokenAccount, amount }) => ({ owner, tokenAccount, amount: amount.toString() })),
    expect.holders.slice(0, LARGEST_ACCOUNTS_LIMIT),
  );
  // Independently: the manifest's holders account for the whole supply, and the top share is what it says.
  assert.equal(
    expect.holders.reduce((sum, holder) => sum + BigInt(holder.amount), 0n),
    supply,
  );
  if (expect.holders.length <= LARGEST_ACCOUNTS_LIMIT) {
    assert.equal(
      funded.reduce((sum, holder) => sum + holder.amount, 0n),
      supply,
    );
  }
  const top = funded[0]?.amount ?? 0n;
  assert.equal(Number((top * 10_000n) / supply), expect.topHolderShareBps);
  return { address, expect, mint };
}

async function checkMetaplex(mint: string, expect: TokenExpect): Promise<void> {
  assert.ok(expect.metaplex);
  const address = await findMetadataAddress(mint as Address);
  assert.equal(address, expect.metaplex.address);
  const account = await accountBytes(sandbox, address);
  assert.equal(account.owner, TOKEN_METADATA_PROGRAM);
  const metadata = decodeMetadata(account.data);
  assert.ok(metadata.ok);
  assert.equal(metadata.value.mint, mint);
  assert.equal(metadata.value.isMutable, expect.metaplex.isMutable);
  assert.equal(metadata.value.updateAuthority, expect.metaplex.updateAuthority);
  assert.equal(metadata.value.name, expect.metaplex.name);
  assert.equal(metadata.value.symbol, expect.metaplex.symbol);
}

describe('seeded scenarios: tokens', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('USDC sits at its mainnet mint with the sandbox authority, which can mint test USDC over RPC', async () => {
    const mint = await mintOf(USDC_MINT);
    assert.equal(mint.program, 'spl-token');
    assert.equal(mint.decimals, 6);
    assert.equal(mint.mintAuthority, sandbox.manifest.usdc.mintAuthority);
    const authority = await usdcMintAuthority(sandbox.manifest);
    assert.equal(authority.address, sandbox.manifest.usdc.mintAuthority);
    // A real MintToChecked through the RPC, signed by the key the manifest carries.
    const holder = subject(sandbox.manifest, 'wallet', 'wallet:high-failure').address as Address;
    const token = await usdcAccountOf(holder);
    const { value: lifetime } = await sandbox.rpc.getLatestBlockhash().send();
    const transaction = await pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(authority, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getMintToCheckedInstruction({
              mint: USDC_MINT,
              token,
              mintAuthority: authority,
              amount: 7n,
              decimals: 6,
            }),
          ],
          m,
        ),
      (m) => signTransactionMessageWithSigners(m),
    );
    await sandbox.rpc
      .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' })
      .send();
    assert.equal((await mintOf(USDC_MINT)).supply, mint.supply + 7n);
  });

  it('token:clean has both authorities revoked, ≥ 10 holders, no one above 20 %, immutable metadata', async () => {
    const { address, expect, mint } = await checkToken('token:clean');
    assert.equal(mint.mintAuthority, null);
    assert.equal(mint.freezeAuthority, null);
    assert.ok(new Set(expect.holders.map((holder) => holder.owner)).size >= 10);
    assert.ok(expect.topHolderShareBps < 2_000);
    await checkMetaplex(address, expect);
    assert.equal(expect.metaplex?.isMutable, false);
  });

  it('token:authorities-live keeps mint and freeze authority and mutable metadata', async () => {
    const { address, expect, mint } = await checkToken('token:authorities-live');
    assert.ok(mint.mintAuthority);
    assert.equal(mint.freezeAuthority, mint.mintAuthority);
    await checkMetaplex(address, expect);
    assert.equal(expect.metaplex?.isMutable, true);
  });

  it('token:concentrated has one holder with 90 % of the supply', async () => {
    const { expect } = await checkToken('token:concentrated');
    assert.equal(expect.topHolderShareBps, 9_000);
  });

  it('token:t22-permanent-delegate carries a PermanentDelegate', async () => {
    const { expect, mint } = await checkToken('token:t22-permanent-delegate');
    assert.ok(mint.extensions.permanentDelegate);
    assert.equal(mint.extensions.permanentDelegate, expect.permanentDelegate);
  });

  it('token:t22-transfer-fee charges 500 bps now and later', async () => {
    const { expect, mint } = await checkToken('token:t22-transfer-fee');
    const config = mint.extensions.transferFeeConfig;
    assert.ok(config && expect.transferFee);
    assert.equal(config.olderTransferFee.basisPoints, 500);
    assert.equal(config.newerTransferFee.basisPoints, 500);
    assert.equal(config.configAuthority, expect.transferFee.configAuthority);
    assert.equal(config.newerTransferFee.epoch.toString(), expect.transferFee.newerEpoch);
    assert.equal(config.newerTransferFee.maximumFee.toString(), expect.transferFee.maximumFee);
  });

  it('token:t22-transfer-fee-increase has 2500 bps scheduled two epochs after it was set, still in the future', async () => {
    const { expect, mint } = await checkToken('token:t22-transfer-fee-increase');
    const config = mint.extensions.transferFeeConfig;
    assert.ok(config && expect.transferFee);
    assert.equal(config.olderTransferFee.basisPoints, 100);
    assert.equal(config.newerTransferFee.basisPoints, 2500);
    assert.equal(config.olderTransferFee.epoch.toString(), expect.transferFee.olderEpoch);
    assert.equal(config.newerTransferFee.epoch, config.olderTransferFee.epoch + 2n);
    assert.equal(config.newerTransferFee.epoch.toString(), expect.transferFee.newerEpoch);
    const { epoch } = await sandbox.rpc.getEpochInfo().send();
    assert.ok(config.newerTransferFee.epoch > epoch, 'the increase has not taken effect yet');
  });

  it('token:t22-transfer-hook points at the upgradeable single-key program', async () => {
    const { expect, mint } = await checkToken('token:t22-transfer-hook');
    const hook = mint.extensions.transferHook;
    assert.ok(hook && expect.transferHook);
    assert.equal(hook.programId, subject(sandbox.manifest, 'program', 'program:single-key').address);
    assert.equal(hook.programId, expect.transferHook.programId);
    assert.equal(hook.authority, expect.transferHook.authority);
    assert.equal((await accountBytes(sandbox, hook.programId ?? '')).executable, true);
  });

  it('token:t22-default-frozen starts new accounts frozen; approved holders were thawed', async () => {
    const { address, expect, mint } = await checkToken('token:t22-default-frozen');
    assert.equal(mint.extensions.defaultAccountState, 'frozen');
    assert.ok(mint.freezeAuthority);
    const { holders } = await holdersOf(address);
    for (const holder of holders.filter((h) => h.amount > 0n)) assert.equal(holder.state, 'initialized');
    assert.equal(expect.frozenTokenAccounts?.length, 1);
    const outsider = await accountBytes(sandbox, expect.frozenTokenAccounts?.[0] ?? '');
    const decoded = decodeTokenAccount(outsider.data, outsider.owner);
    assert.ok(decoded.ok);
    assert.equal(decoded.value.state, 'frozen');
    assert.equal(decoded.value.amount, 0n);
  });

  it('token:t22-non-transferable is soulbound', async () => {
    const { mint } = await checkToken('token:t22-non-transferable');
    assert.equal(mint.extensions.nonTransferable, true);
  });

  it('token:t22-pausable is paused by its pause authority', async () => {
    const { expect, mint } = await checkToken('token:t22-pausable');
    assert.deepEqual(mint.extensions.pausable, expect.pausable);
    assert.equal(mint.extensions.pausable?.paused, true);
  });
});
