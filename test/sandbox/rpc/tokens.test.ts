import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, type KeyPairSigner, type Signature } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  fetchMint,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import * as token2022 from '@solana-program/token-2022';
import { fundedSigner, rpcError, type Sandbox, send, startSandbox } from '../harness.js';

interface TokenProgram {
  program: Address;
  findAta: typeof findAssociatedTokenPda;
  createAta: typeof getCreateAssociatedTokenIdempotentInstructionAsync;
  initializeMint: typeof getInitializeMint2Instruction;
  mintTo: typeof getMintToCheckedInstruction;
  transfer: typeof getTransferCheckedInstruction;
}

const SPL: TokenProgram = {
  program: TOKEN_PROGRAM_ADDRESS,
  findAta: findAssociatedTokenPda,
  createAta: getCreateAssociatedTokenIdempotentInstructionAsync,
  initializeMint: getInitializeMint2Instruction,
  mintTo: getMintToCheckedInstruction,
  transfer: getTransferCheckedInstruction,
};

const T22 = {
  program: token2022.TOKEN_2022_PROGRAM_ADDRESS,
  findAta: token2022.findAssociatedTokenPda,
  createAta: token2022.getCreateAssociatedTokenIdempotentInstructionAsync,
  initializeMint: token2022.getInitializeMint2Instruction,
  mintTo: token2022.getMintToCheckedInstruction,
  transfer: token2022.getTransferCheckedInstruction,
} as unknown as TokenProgram;

/** A mint with `authority`, two holders' ATAs, 5.0 tokens minted to the first, 1.25 sent to the second. */
async function tokenScenario(
  sandbox: Sandbox,
  kind: TokenProgram,
  extensions: token2022.ExtensionArgs[] = [],
) {
  const authority = await fundedSigner(sandbox.chain);
  const mint = await generateKeyPairSigner();
  const holderA = await fundedSigner(sandbox.chain);
  const holderB = (await generateKeyPairSigner()).address;
  const space = kind === SPL ? getMintSize() : token2022.getMintSize(extensions);
  const rent = await sandbox.rpc.getMinimumBalanceForRentExemption(BigInt(space)).send();
  await send(sandbox, authority, [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: mint,
      lamports: rent,
      space,
      programAddress: kind.program,
    }),
    ...(extensions.length
      ? token2022.getPreInitializeInstructionsForMintExtensions(mint.address, extensions)
      : []),
    kind.initializeMint({
      mint: mint.address,
      decimals: 6,
      mintAuthority: authority.address,
      freezeAuthority: null,
    }),
  ]);
  const [ataA] = await kind.findAta({
    owner: holderA.address,
    mint: mint.address,
    tokenProgram: kind.program,
  });
  const [ataB] = await kind.findAta({ owner: holderB, mint: mint.address, tokenProgram: kind.program });
  await send(sandbox, authority, [
    await kind.createAta({
      payer: authority,
      owner: holderA.address,
      mint: mint.address,
      tokenProgram: kind.program,
    } as never),
    await kind.createAta({
      payer: authority,
      owner: holderB,
      mint: mint.address,
      tokenProgram: kind.program,
    } as never),
    kind.mintTo({
      mint: mint.address,
      token: ataA,
      mintAuthority: authority,
      amount: 5_000_000n,
      decimals: 6,
    }),
  ]);
  const transfer = await send(sandbox, holderA, [
    kind.transfer({
      source: ataA,
      mint: mint.address,
      destination: ataB,
      authority: holderA,
      amount: 1_250_000n,
      decimals: 6,
    }),
  ]);
  return { authority, mint: mint.address, holderA, holderB, ataA, ataB, transfer };
}

describe('sandbox RPC: SPL Token and Token-2022', () => {
  let sandbox: Sandbox;
  let spl: Awaited<ReturnType<typeof tokenScenario>>;
  let t22: Awaited<ReturnType<typeof tokenScenario>>;
  let closer: KeyPairSigner;
  before(async () => {
    sandbox = await startSandbox();
    closer = await generateKeyPairSigner();
    spl = await tokenScenario(sandbox, SPL);
    t22 = await tokenScenario(sandbox, T22, [
      { __kind: 'MintCloseAuthority', closeAuthority: closer.address },
    ]);
  });
  after(() => sandbox.close());

  for (const [name, scenario] of [
    ['SPL Token', () => spl],
    ['Token-2022', () => t22],
  ] as const) {
    it(`${name}: supply, balances and largest accounts follow real mint and transfer`, async () => {
      const s = scenario();
      const supply = await sandbox.rpc.getTokenSupply(s.mint).send();
      assert.deepEqual(supply.value, { amount: '5000000', decimals: 6, uiAmount: 5, uiAmountString: '5' });
      const a = await sandbox.rpc.getTokenAccountBalance(s.ataA).send();
      assert.equal(a.value.uiAmountString, '3.75');
      assert.equal(a.value.uiAmount, 3.75);
      const largest = await sandbox.rpc.getTokenLargestAccounts(s.mint).send();
      assert.deepEqual(
        largest.value.map((h) => [h.address, h.amount]),
        [
          [s.ataA, '3750000'],
          [s.ataB, '1250000'],
        ],
      );
    });

    it(`${name}: getTransaction carries pre/post token balances with owner and program`, async () => {
      const s = scenario();
      const tx = await sandbox.rpc
        .getTransaction(s.transfer as Signature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
          encoding: 'json',
        })
        .send();
      const post = tx?.meta?.postTokenBalances ?? [];
      const pre = tx?.meta?.preTokenBalances ?? [];
      const byOwner = (list: typeof post, owner: string) =>
        list.find((b) => b.owner === owner)?.uiTokenAmount.uiAmountString;
      assert.equal(byOwner(pre, s.holderA.address), '5');
      assert.equal(byOwner(pre, s.holderB), '0');
      assert.equal(byOwner(post, s.holderA.address), '3.75');
      assert.equal(byOwner(post, s.holderB), '1.25');
      assert.ok(
        post.every(
          (b) => b.mint === s.mint && b.programId === (name === 'SPL Token' ? SPL.program : T22.program),
        ),
      );
    });

    it(`${name}: getTokenAccountsByOwner filters by mint and by program`, async () => {
      const s = scenario();
      const program = name === 'SPL Token' ? SPL.program : T22.program;
      const byMint = await sandbox.rpc
        .getTokenAccountsByOwner(s.holderB, { mint: s.mint }, { encoding: 'base64' })
        .send();
      assert.deepEqual(
        byMint.value.map((a) => a.pubkey),
        [s.ataB],
      );
      assert.equal(byMint.value[0]?.account.owner, program);
      const byProgram = await sandbox.rpc
        .getTokenAccountsByOwner(s.holderA.address, { programId: program }, { encoding: 'jsonParsed' })
        .send();
      const parsed = byProgram.value[0]?.account.data as unknown as {
        parsed: { info: { tokenAmount: { amount: string } } };
      };
      assert.equal(parsed.parsed.info.tokenAmount.amount, '3750000');
    });
  }

  it('the owner index answers every change at once: a transfer, and an account written directly', async () => {
    const s = await tokenScenario(sandbox, SPL);
    const largest = async () =>
      (await sandbox.rpc.getTokenLargestAccounts(s.mint).send()).value.map((h) => [h.address, h.amount]);
    const heldByB = async () =>
      (
        await sandbox.rpc
          .getTokenAccountsByOwner(s.holderB, { mint: s.mint }, { encoding: 'jsonParsed' })
          .send()
      ).value as unknown as {
        account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } };
      }[];
    assert.deepEqual(await largest(), [
      [s.ataA, '3750000'],
      [s.ataB, '1250000'],
    ]);
    assert.equal((await heldByB())[0]?.account.data.parsed.info.tokenAmount.amount, '1250000');
    await send(sandbox, s.holderA, [
      SPL.transfer({
        source: s.ataA,
        mint: s.mint,
        destination: s.ataB,
        authority: s.holderA,
        amount: 2_500_000n,
        decimals: 6,
      }),
    ]);
    assert.deepEqual(await largest(), [
      [s.ataB, '3750000'],
      [s.ataA, '1250000'],
    ]);
    assert.equal((await heldByB())[0]?.account.data.parsed.info.tokenAmount.amount, '3750000');

    const program = (await generateKeyPairSigner()).address;
    const before = await sandbox.rpc.getProgramAccounts(program, { encoding: 'base64' }).send();
    assert.equal(before.length, 0);
    const written = (await generateKeyPairSigner()).address;
    sandbox.chain.setAccount({
      address: written,
      lamports: 1_000_000n,
      owner: program,
      data: new Uint8Array([7]),
    });
    const after = await sandbox.rpc.getProgramAccounts(program, { encoding: 'base64' }).send();
    assert.deepEqual(
      after.map((a) => [a.pubkey, a.account.data[0]]),
      [[written, 'Bw==']],
    );
  });

  it('decodes the mint with the program client over base64 getAccountInfo', async () => {
    const mint = await fetchMint(sandbox.rpc, spl.mint);
    assert.equal(mint.data.decimals, 6);
    assert.equal(mint.data.supply, 5_000_000n);
    assert.equal(mint.programAddress, TOKEN_PROGRAM_ADDRESS);
    const t22Mint = await token2022.fetchMint(sandbox.rpc, t22.mint);
    const extension =
      t22Mint.data.extensions.__option === 'Some' ? t22Mint.data.extensions.value[0] : undefined;
    assert.equal(extension?.__kind, 'MintCloseAuthority');
  });

  it('refuses token queries on accounts that are not mints or token accounts', async () => {
    const wallet = spl.holderA.address;
    assert.equal((await rpcError(sandbox.rpc.getTokenSupply(wallet).send())).code, -32602);
    assert.equal((await rpcError(sandbox.rpc.getTokenAccountBalance(spl.mint).send())).code, -32602);
    const missing = (await generateKeyPairSigner()).address;
    assert.equal((await rpcError(sandbox.rpc.getTokenAccountBalance(missing).send())).code, -32602);
    assert.equal(
      (await rpcError(sandbox.rpc.getTokenAccountsByOwner(wallet, { programId: wallet }).send())).code,
      -32602,
    );
  });
});
