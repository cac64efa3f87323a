/**
 * Token-2022 subjects, each created by the real Token-2022 program from its own initialize instructions:
 * permanent delegate, transfer fee (flat and with a scheduled increase via SetTransferFee), transfer hook,
 * default-frozen accounts, non-transferable, and pausable (LiteSVM 1.5's Token-2022 supports Pausable).
 */
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import {
  AccountState,
  type ExtensionArgs,
  getCreateAssociatedTokenIdempotentInstruction,
  getPauseInstruction,
  getSetTransferFeeInstruction,
  getThawAccountInstruction,
} from '@solana-program/token-2022';
import { TOKEN_2022_PROGRAM } from '../../solana/programs.js';
import { epochOf } from '../chain/clock.js';
import { submit } from '../wallets.js';
import {
  AuthorityType,
  associatedTokenAccount,
  createMint,
  type Grant,
  mintToOwners,
  revokeMintAuthorityInstruction,
} from './builders/token.js';
import { fundedSigner, holderDistribution, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { HolderExpect, TokenExpect } from './manifest.js';
import { HOOK_PROGRAM_LABEL } from './programs.js';

const DECIMALS = 6;
const UNIT = 10n ** BigInt(DECIMALS);
const ALLOCATIONS = [500_000n, 300_000n, 200_000n, 150_000n, 100_000n] as const;

export interface Token2022Spec {
  name: string;
  description: string;
  /** Extensions in initialization order, which is their TLV order in the account. */
  extensions: (authority: KeyPairSigner) => Promise<ExtensionArgs[]> | ExtensionArgs[];
  extensionNames: string[];
  freezeAuthority?: boolean;
  /** Runs before the holders are funded (default-frozen mints thaw their holders here). */
  before?: (mint: Address, authority: KeyPairSigner, owners: readonly Address[]) => Promise<void>;
  /** Runs after the holders are funded, before the mint authority is revoked; returns extra expectations. */
  after?: (mint: Address, authority: KeyPairSigner) => Promise<Partial<TokenExpect>>;
  expect: (authority: KeyPairSigner) => Partial<TokenExpect>;
}

export async function seedToken2022(context: ScenarioContext, spec: Token2022Spec): Promise<BuiltSubject> {
  const { chain, keys } = context;
  const authority = await fundedSigner(context, `${spec.name}:authority`);
  const mint = await keys.signer(`${spec.name}:mint`);
  const extensions = await spec.extensions(authority);
  await createMint(chain, {
    payer: authority,
    mint,
    tokenProgram: TOKEN_2022_PROGRAM,
    decimals: DECIMALS,
    mintAuthority: authority,
    ...(spec.freezeAuthority ? { freezeAuthority: authority.address } : {}),
    extensions,
  });
  const grants: Grant[] = await Promise.all(
    ALLOCATIONS.map(async (tokens, i) => ({
      owner: (await keys.signer(`${spec.name}:holder:${i}`)).address,
      amount: tokens * UNIT,
    })),
  );
  await spec.before?.(
    mint.address,
    authority,
    grants.map((grant) => grant.owner),
  );
  await mintToOwners(chain, authority, mint.address, authority, TOKEN_2022_PROGRAM, DECIMALS, grants);
  const extra = spec.after ? await spec.after(mint.address, authority) : {};
  await submit(chain, authority, [
    revokeMintAuthorityInstruction(mint.address, authority, TOKEN_2022_PROGRAM, AuthorityType.MintTokens),
  ]);
  const supply = grants.reduce((sum, grant) => sum + grant.amount, 0n);
  const holders = await Promise.all(
    grants.map(
      async ({ owner, amount }): Promise<HolderExpect> => ({
        owner,
        tokenAccount: await associatedTokenAccount(owner, mint.address, TOKEN_2022_PROGRAM),
        amount: amount.toString(),
      }),
    ),
  );
  const expect: TokenExpect = {
    program: 'token-2022',
    decimals: DECIMALS,
    supply: supply.toString(),
    mintAuthority: null,
    freezeAuthority: spec.freezeAuthority ? authority.address : null,
    extensions: spec.extensionNames,
    ...holderDistribution(holders, supply),
    ...spec.expect(authority),
    ...extra,
  };
  return { name: spec.name, kind: 'token', address: mint.address, description: spec.description, expect };
}

function transferFeeExtension(authority: Address, basisPoints: number, maximumFee: bigint): ExtensionArgs {
  const fee = { epoch: 0n, maximumFee, transferFeeBasisPoints: basisPoints };
  return {
    __kind: 'TransferFeeConfig',
    transferFeeConfigAuthority: authority,
    withdrawWithheldAuthority: authority,
    withheldAmount: 0n,
    olderTransferFee: fee,
    newerTransferFee: fee,
  };
}

const MAXIMUM_FEE = 1_000_000n * UNIT;

const permanentDelegate = (): Token2022Spec => ({
  name: 'token:t22-permanent-delegate',
  description: 'Token-2022 mint with a PermanentDelegate that can move or burn tokens from any holder',
  extensions: (authority) => [{ __kind: 'PermanentDelegate', delegate: authority.address }],
  extensionNames: ['PermanentDelegate'],
  expect: (authority) => ({ permanentDelegate: authority.address }),
});

const transferFee = ({ chain }: ScenarioContext): Token2022Spec => ({
  name: 'token:t22-transfer-fee',
  description: 'Token-2022 mint charging a 500 bps transfer fee, fee authority live',
  extensions: (authority) => [transferFeeExtension(authority.address, 500, MAXIMUM_FEE)],
  extensionNames: ['TransferFeeConfig'],
  expect: (authority) => {
    // InitializeTransferFeeConfig stamps both fee slots with the epoch of the creating slot.
    const epoch = epochOf(chain.slot).epoch.toString();
    return {
      transferFee: {
        configAuthority: authority.address,
        withdrawWithheldAuthority: authority.address,
        olderBasisPoints: 500,
        olderEpoch: epoch,
        newerBasisPoints: 500,
        newerEpoch: epoch,
        maximumFee: MAXIMUM_FEE.toString(),
      },
    };
  },
});

const transferFeeIncrease = ({ chain }: ScenarioContext): Token2022Spec => ({
  name: 'token:t22-transfer-fee-increase',
  description:
    'Token-2022 mint at 100 bps whose fee authority scheduled 2500 bps with SetTransferFee (in force 2 epochs later)',
  extensions: (authority) => [transferFeeExtension(authority.address, 100, MAXIMUM_FEE)],
  extensionNames: ['TransferFeeConfig'],
  after: async (mint, authority) => {
    const epoch = epochOf(chain.slot).epoch;
    await submit(chain, authority, [
      getSetTransferFeeInstruction({
        mint,
        transferFeeConfigAuthority: authority,
        transferFeeBasisPoints: 2500,
        maximumFee: MAXIMUM_FEE,
      }),
    ]);
    return {
      transferFee: {
        configAuthority: authority.address,
        withdrawWithheldAuthority: authority.address,
        olderBasisPoints: 100,
        olderEpoch: epoch.toString(),
        newerBasisPoints: 2500,
        newerEpoch: (epoch + 2n).toString(),
        maximumFee: MAXIMUM_FEE.toString(),
      },
    };
  },
  expect: () => ({}),
});

const transferHook = async ({ keys }: ScenarioContext): Promise<Token2022Spec> => {
  const hookProgram = (await keys.signer(HOOK_PROGRAM_LABEL)).address;
  return {
    name: 'token:t22-transfer-hook',
    description:
      'Token-2022 mint whose transfers CPI into an upgradeable hook program that has no validation account, so every transfer fails; the hook authority can swap the program',
    extensions: (authority) => [
      { __kind: 'TransferHook', authority: authority.address, programId: hookProgram },
    ],
    extensionNames: ['TransferHook'],
    expect: (authority) => ({ transferHook: { authority: authority.address, programId: hookProgram } }),
  };
};

/** A buyer the issuer has not approved: the account exists, frozen, and can never receive tokens. */
async function frozenOutsider(context: ScenarioContext, mint: Address, authority: KeyPairSigner) {
  const outsider = (await context.keys.signer('token:t22-default-frozen:outsider')).address;
  const ata = await associatedTokenAccount(outsider, mint, TOKEN_2022_PROGRAM);
  await submit(context.chain, authority, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: authority,
      ata,
      owner: outsider,
      mint,
      tokenProgram: TOKEN_2022_PROGRAM,
    }),
  ]);
  return { frozenTokenAccounts: [ata] };
}

const defaultFrozen = (context: ScenarioContext): Token2022Spec => ({
  name: 'token:t22-default-frozen',
  description:
    'Token-2022 mint with DefaultAccountState=Frozen: every new holder account starts frozen until the freeze authority thaws it',
  extensions: () => [{ __kind: 'DefaultAccountState', state: AccountState.Frozen }],
  extensionNames: ['DefaultAccountState'],
  freezeAuthority: true,
  before: (mint, authority, owners) => createAndThaw(context, mint, authority, owners),
  after: (mint, authority) => frozenOutsider(context, mint, authority),
  expect: () => ({ defaultAccountState: 'frozen' }),
});

const nonTransferable = (): Token2022Spec => ({
  name: 'token:t22-non-transferable',
  description: 'Token-2022 NonTransferable (soulbound) mint: holders cannot sell or move it',
  extensions: () => [{ __kind: 'NonTransferable' }],
  extensionNames: ['NonTransferable'],
  expect: () => ({ nonTransferable: true }),
});

const pausable = ({ chain }: ScenarioContext): Token2022Spec => ({
  name: 'token:t22-pausable',
  description:
    'Token-2022 mint with the Pausable extension, paused by its pause authority (all transfers halted)',
  extensions: (authority) => [{ __kind: 'PausableConfig', authority: authority.address, paused: false }],
  extensionNames: ['PausableConfig'],
  after: async (mint, authority) => {
    await submit(chain, authority, [getPauseInstruction({ mint, authority })]);
    return { pausable: { authority: authority.address, paused: true } };
  },
  expect: () => ({}),
});

/** The Token-2022 subjects, created in this order. */
const TOKEN_2022_MINTS: readonly ((context: ScenarioContext) => Token2022Spec | Promise<Token2022Spec>)[] = [
  permanentDelegate,
  transferFee,
  transferFeeIncrease,
  transferHook,
  defaultFrozen,
  nonTransferable,
  pausable,
];

export async function seedToken2022Mints(context: ScenarioContext): Promise<BuiltSubject[]> {
  const built: BuiltSubject[] = [];
  for (const spec of TOKEN_2022_MINTS) built.push(await seedToken2022(context, await spec(context)));
  return built;
}

/**
 * Default-frozen holders: MintTo into a frozen account fails, so the issuer creates each holder's account
 * (born frozen) and thaws it before minting, as an allow-listing issuer does.
 */
async function createAndThaw(
  context: ScenarioContext,
  mint: Address,
  authority: KeyPairSigner,
  owners: readonly Address[],
): Promise<void> {
  const instructions: Instruction[] = [];
  for (const owner of owners) {
    const ata = await associatedTokenAccount(owner, mint, TOKEN_2022_PROGRAM);
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: authority,
        ata,
        owner,
        mint,
        tokenProgram: TOKEN_2022_PROGRAM,
      }),
      getThawAccountInstruction({ account: ata, mint, owner: authority }),
    );
  }
  for (let i = 0; i < instructions.length; i += 8) {
    await submit(context.chain, authority, instructions.slice(i, i + 8));
  }
}
