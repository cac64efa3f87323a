/**
 * Transfer-hook subjects for the transfer simulation of /scan/token and /scan/pumpfun: a hook
 * that refuses every transfer (twice: holders whose wallets hold SOL, and holders whose wallets
 * have no system account, which the simulation's own fee payer makes no matter), and one that
 * lets every transfer through (with a validation account listing extra accounts of each seed
 * kind, so a wrong resolution fails on chain).
 *
 * The hooks are LiteSVM's Memo v2 ELF with its entrypoint patched to `mov64 r0, <code>; exit`:
 * a valid SBF program that returns at once, 0 (success) or a custom error, whatever it is given.
 * A hook can read the transfer but not move tokens (Token-2022 passes it the token accounts
 * read-only), so "received less than sent" has no construction on the real programs here: its
 * rule is covered by unit tests (test/scans/token/transfer-simulation-assess.test.ts).
 */
import { type Address, getUtf8Encoder } from '@solana/kit';
import {
  type ExtraAccountMeta,
  findExtraAccountMetaListPda,
  getExtraAccountMetasEncoder,
} from '@solana-program/token-2022';
import { concatBytes, u32 } from './builders/bytes.js';
import { installStandInProgram } from './builders/layouts.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import { seedToken2022 } from './token-2022.js';

/** What the refusing hook returns: custom program error 0x1770, Anchor's first user error code. */
export const REFUSING_HOOK_ERROR = 6000;
/** spl-transfer-hook-interface's Execute discriminator: the TLV type of the validation account. */
const EXECUTE_DISCRIMINATOR = Uint8Array.of(105, 37, 101, 197, 75, 251, 102, 26);

/** The ELF with its entrypoint replaced by `mov64 r0, code; exit`. */
export function returningElf(elf: Uint8Array, code: number): Uint8Array {
  const out = new Uint8Array(elf);
  const view = new DataView(out.buffer);
  const entry = view.getBigUint64(0x18, true);
  const sectionHeaders = Number(view.getBigUint64(0x28, true));
  const size = view.getUint16(0x3a, true);
  for (let i = 0; i < view.getUint16(0x3c, true); i++) {
    const at = sectionHeaders + i * size;
    const address = view.getBigUint64(at + 0x10, true);
    const length = view.getBigUint64(at + 0x20, true);
    if (view.getUint32(at + 4, true) !== 1 || entry < address || entry >= address + length) continue;
    const offset = Number(view.getBigUint64(at + 0x18, true) + (entry - address));
    out.set([0xb7, 0, 0, 0], offset); // mov64 r0, imm
    view.setInt32(offset + 4, code, true);
    out.set([0x95, 0, 0, 0, 0, 0, 0, 0], offset + 8); // exit
    return out;
  }
  throw new Error('the ELF has no PROGBITS section holding its entrypoint');
}

/** Extra accounts of every seed kind the interface has: literal, instruction data, account key and data. */
function extraAccountMetas(literal: Address): ExtraAccountMeta[] {
  const utf8 = getUtf8Encoder();
  return [
    { config: { __kind: 'Literal', address: literal }, isSigner: false, isWritable: false },
    {
      config: {
        __kind: 'ProgramPda',
        seeds: [
          { __kind: 'Literal', bytes: utf8.encode('counter') },
          { __kind: 'AccountKey', index: 3 }, // the owner signing the transfer
          { __kind: 'InstructionData', index: 8, length: 8 }, // the amount
        ],
      },
      isSigner: false,
      isWritable: true,
    },
    // The source account's owner, read from its data (bytes 32..64).
    {
      config: { __kind: 'PubkeyData', pubkeyData: { __kind: 'AccountData', accountIndex: 0, dataIndex: 32 } },
      isSigner: false,
      isWritable: false,
    },
    {
      config: {
        __kind: 'AccountPda',
        accountIndex: 5, // the literal above
        seeds: [{ __kind: 'AccountData', accountIndex: 0, dataIndex: 0, length: 32 }], // the mint
      },
      isSigner: false,
      isWritable: false,
    },
  ];
}

async function writeValidationAccount(
  context: ScenarioContext,
  mint: Address,
  hook: Address,
  metas: ExtraAccountMeta[],
): Promise<Address> {
  const [address] = await findExtraAccountMetaListPda({ mint }, { programAddress: hook });
  // The encoder leaves the 12-byte TLV header (type, length) zeroed: fill it in.
  const list = new Uint8Array(getExtraAccountMetasEncoder().encode(metas)).slice(12);
  const data = concatBytes(EXECUTE_DISCRIMINATOR, u32(list.length), list);
  context.chain.setAccount({
    address,
    lamports: context.chain.minimumBalanceForRentExemption(data.length),
    data,
    owner: hook,
  });
  return address;
}

/** Holders' wallets hold SOL, as a seller's does (the simulation does not need it: it brings its own fee payer). */
async function fundHolders(context: ScenarioContext, name: string): Promise<void> {
  for (let i = 0; i < 5; i++) await fundedSigner(context, `${name}:holder:${i}`, LAMPORTS_PER_SOL / 10n);
}

async function hookProgram(context: ScenarioContext, label: string, code: number): Promise<Address> {
  const program = (await context.keys.signer(label)).address;
  await installStandInProgram(context.chain, program, returningElf(context.programElf, code), null);
  return program;
}

/** A mint whose hook refuses every transfer; `fund` gives its holders' wallets SOL, or none at all. */
async function seedRefusingHookMint(
  context: ScenarioContext,
  refusing: Address,
  spec: { name: string; description: string; fund: boolean },
): Promise<BuiltSubject> {
  return seedToken2022(context, {
    name: spec.name,
    description: spec.description,
    extensions: (authority) => [
      { __kind: 'TransferHook', authority: authority.address, programId: refusing },
    ],
    extensionNames: ['TransferHook'],
    after: async (mint) => {
      await writeValidationAccount(context, mint, refusing, []);
      if (spec.fund) await fundHolders(context, spec.name);
      return {};
    },
    expect: (authority) => ({
      transferHook: { authority: authority.address, programId: refusing },
      transferSimulation: { raises: ['TRANSFER_BLOCKED'], failingProgram: refusing },
    }),
  });
}

export async function seedTransferHookMints(context: ScenarioContext): Promise<BuiltSubject[]> {
  const refusing = await hookProgram(context, 'program:hook-refuses:id', REFUSING_HOOK_ERROR);
  const refuses = await seedRefusingHookMint(context, refusing, {
    name: 'token:t22-hook-refuses',
    description: `Token-2022 mint whose transfer hook refuses every transfer (custom error 0x${REFUSING_HOOK_ERROR.toString(16)}): raises TRANSFER_BLOCKED from a simulated transfer`,
    fund: true,
  });
  const unfunded = await seedRefusingHookMint(context, refusing, {
    name: 'token:t22-hook-refuses-unfunded',
    description:
      "Token-2022 mint whose transfer hook refuses every transfer, and whose holders' wallets have no system account (no SOL): the simulation's own fee payer still lets it run, raising TRANSFER_BLOCKED",
    fund: false,
  });

  const allowing = await hookProgram(context, 'program:hook-allows:id', 0);
  const literal = (await context.keys.signer('token:t22-hook-allows:hook-config')).address;
  const name = 'token:t22-hook-allows';
  const allows = await seedToken2022(context, {
    name,
    description:
      'Token-2022 mint whose transfer hook allows every transfer, with extra accounts of every seed kind: raises no simulation flag',
    extensions: (authority) => [
      { __kind: 'TransferHook', authority: authority.address, programId: allowing },
    ],
    extensionNames: ['TransferHook'],
    after: async (mint) => {
      await writeValidationAccount(context, mint, allowing, extraAccountMetas(literal));
      await fundHolders(context, name);
      return {};
    },
    expect: (authority) => ({
      transferHook: { authority: authority.address, programId: allowing },
      transferSimulation: { raises: [] },
    }),
  });
  return [refuses, unfunded, allows];
}
