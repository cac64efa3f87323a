import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import { type AccountDump, parseAccountDump as parseDump } from '../../solana/decoders/account-dump.js';
import type { SandboxChain } from './chain.js';

export type { AccountDump } from '../../solana/decoders/account-dump.js';

export interface LoadedDump {
  address: string;
  file: string;
  lamports: bigint;
}

/** Reads one dump file; the error names the file. */
export function parseAccountDump(text: string, file = '<inline>'): AccountDump {
  try {
    return parseDump(JSON.parse(text));
  } catch (e) {
    throw new Error(`${file}: not a solana account dump: ${errorMessage(e)}`);
  }
}

/**
 * Writes a dump into the chain, at `address` if given (`--account ADDRESS FILE` semantics) or at its own
 * pubkey. Dumps with 0 lamports are placeholders for an unknown balance; an account with no lamports does
 * not exist, so they get the rent-exempt minimum for their size.
 */
export function applyAccountDump(
  chain: SandboxChain,
  dump: AccountDump,
  address: string = dump.address,
  file = '<inline>',
): LoadedDump {
  const lamports =
    dump.lamports > 0n ? dump.lamports : chain.minimumBalanceForRentExemption(dump.data.length);
  chain.setAccount({
    address,
    lamports,
    data: dump.data,
    owner: dump.owner,
    executable: dump.executable,
    rentEpoch: dump.rentEpoch,
  });
  return { address, file, lamports };
}

export async function loadAccountFile(
  chain: SandboxChain,
  file: string,
  address?: string,
): Promise<LoadedDump> {
  const dump = parseAccountDump(await readFile(file, 'utf8'), file);
  return applyAccountDump(chain, dump, address ?? dump.address, file);
}

/**
 * Loads every `*.json` dump in `dir` (`--accounts-dir` semantics). Non-executable accounts go first:
 * LiteSVM verifies an executable upgradeable program against its programdata account when it is set.
 */
export async function loadAccountsDir(chain: SandboxChain, dir: string): Promise<LoadedDump[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const dumps = await Promise.all(
    files.map(async (name) => {
      const file = join(dir, name);
      return { file, dump: parseAccountDump(await readFile(file, 'utf8'), file) };
    }),
  );
  dumps.sort((a, b) => Number(a.dump.executable) - Number(b.dump.executable));
  return dumps.map(({ file, dump }) => applyAccountDump(chain, dump, dump.address, file));
}
