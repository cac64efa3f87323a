/**
 * Real mainnet accounts from the shared fixture dumps, listed as `mainnet:*` subjects with what their bytes
 * decode to. The USDC dump is skipped: the sandbox's own USDC mint (with a sandbox mint authority) must win.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Address } from '@solana/kit';
import { decodeMint } from '../../solana/decoders/mint.js';
import { decodeBondingCurve } from '../../solana/decoders/pump-bonding-curve.js';
import { decodeUpgradeableLoaderState } from '../../solana/decoders/upgradeable-loader.js';
import { BPF_UPGRADEABLE_LOADER, PUMP_PROGRAM, USDC_MINT } from '../../solana/programs.js';
import { type AccountDump, applyAccountDump, parseAccountDump } from '../chain/dumps.js';
import type { ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';

/** Dumps not loaded: the real USDC (the sandbox mints its own) and a second, older copy of PYUSD. */
const SKIPPED = new Set(['usdc-mint.json', 'pyusd-mint-t22-sava-snapshot.json']);

/** A subject as its bytes describe it (its flag expectations are the schedule's: mainnet-flags.ts). */
type Described = Extract<BuiltSubject, { name: `mainnet:${string}` }>;

interface LoadedFile {
  file: string;
  dump: AccountDump;
}

function mintFacts(data: Uint8Array, owner: Address): Record<string, unknown> {
  const mint = decodeMint(data, owner);
  if (!mint.ok) return {};
  return {
    mintAuthority: mint.value.mintAuthority,
    freezeAuthority: mint.value.freezeAuthority,
    supply: mint.value.supply.toString(),
    decimals: mint.value.decimals,
    extensions: mint.value.extensions.present.map((entry) => entry.name ?? entry.type),
  };
}

function describe(loaded: LoadedFile, programData: Map<string, Uint8Array>): Described | null {
  const { dump, file } = loaded;
  const data = dump.data;
  const owner = dump.owner;
  const base = { owner, dataLength: data.length, file };
  const name = file.replace(/\.json$/, '');
  if (name.startsWith('pump-v2-t22-mint-') || name === 'pump-legacy-mint-2fWkVf') {
    return {
      name: `mainnet:${name}`,
      kind: 'pumpfun',
      address: dump.address,
      description: `Real pump.fun mint from mainnet (${file})`,
      expect: { ...base, facts: mintFacts(data, owner) },
    };
  }
  if (name.startsWith('pump-bonding-curve-') && owner === PUMP_PROGRAM) {
    const curve = decodeBondingCurve(data);
    return {
      name: `mainnet:${name}`,
      kind: 'pumpfun',
      address: dump.address,
      description: `Real pump.fun bonding curve account from mainnet (${file}): the curve, not a mint, so /scan/pumpfun answers NOT_A_MINT for it; scan the mint whose name starts the same way`,
      expect: {
        ...base,
        facts: curve.ok
          ? {
              creator: curve.value.creator,
              complete: curve.value.complete,
              realTokenReserves: curve.value.realTokenReserves.toString(),
              realQuoteReserves: curve.value.realQuoteReserves.toString(),
            }
          : {},
      },
    };
  }
  if (name === 'usdt-mint' || name.startsWith('pyusd-mint')) {
    return {
      name: `mainnet:${name.startsWith('pyusd') ? 'pyusd' : 'usdt'}`,
      kind: 'token',
      address: dump.address,
      description: `Real ${name.startsWith('pyusd') ? 'PayPal USD (Token-2022)' : 'USDT'} mint from mainnet (${file})`,
      expect: { ...base, facts: mintFacts(data, owner) },
    };
  }
  if (dump.executable && owner === BPF_UPGRADEABLE_LOADER) {
    const program = decodeUpgradeableLoaderState(data);
    if (!program.ok || program.value.kind !== 'program') return null;
    const header = programData.get(program.value.programDataAddress);
    const state = header ? decodeUpgradeableLoaderState(header) : null;
    const facts =
      state?.ok && state.value.kind === 'programData'
        ? {
            programData: program.value.programDataAddress,
            upgradeAuthority: state.value.upgradeAuthority,
            lastDeploySlot: state.value.slot.toString(),
          }
        : { programData: program.value.programDataAddress };
    return {
      name: `mainnet:${name.replace(/-program$/, '')}`,
      kind: 'program',
      address: dump.address,
      description: `Real mainnet program and its ProgramData (${file})`,
      expect: { ...base, facts },
    };
  }
  return null;
}

/** Loads the dumps (data accounts first: LiteSVM checks a program's ProgramData when it is set). */
export async function seedMainnetDumps(context: ScenarioContext, dir: string): Promise<BuiltSubject[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json') && !SKIPPED.has(name)).sort();
  const loaded: LoadedFile[] = await Promise.all(
    files.map(async (file) => ({
      file,
      dump: parseAccountDump(await readFile(join(dir, file), 'utf8'), file),
    })),
  );
  loaded.sort((a, b) => Number(a.dump.executable) - Number(b.dump.executable));
  const programData = new Map<string, Uint8Array>();
  for (const entry of loaded) {
    if (entry.dump.address === USDC_MINT) continue;
    applyAccountDump(context.chain, entry.dump, entry.dump.address, entry.file);
    if (entry.dump.owner === BPF_UPGRADEABLE_LOADER && !entry.dump.executable) {
      programData.set(entry.dump.address, entry.dump.data);
    }
  }
  return loaded.flatMap((entry) => describe(entry, programData) ?? []);
}
