import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { SandboxChain } from './chain.js';

/** One account as `solana account --output json` writes it. */
const AccountDumpSchema = z.object({
  pubkey: z.string(),
  account: z.object({
    lamports: z.number().int().nonnegative(),
    data: z.tuple([z.string(), z.literal('base64')]),
    owner: z.string(),
    executable: z.boolean(),
    rentEpoch: z.number().nonnegative(),
    space: z.number().int().nonnegative().optional(),
  }),
});

export type AccountDump = z.infer<typeof AccountDumpSchema>;

export interface LoadedDump {
  address: string;
  file: string;
  lamports: bigint;
}

export function parseAccountDump(text: string, file = '<inline>'): AccountDump {
  const parsed = AccountDumpSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file}: not a solana account dump: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Writes a dump into the chain, at `address` if given (`--account ADDRESS FILE` semantics) or at its own
 * pubkey. Dumps with 0 lamports are placeholders for an unknown balance; an account with no lamports does
 * not exist, so they get the rent-exempt minimum for their size.
 */
export function applyAccountDump(
  chain: SandboxChain,
  dump: AccountDump,
  address = dump.pubkey,
  file = '<inline>',
): LoadedDump {
  const data = new Uint8Array(Buffer.from(dump.account.data[0], 'base64'));
  // JSON numbers lose precision above 2^53, so the exact rentEpoch (u64::MAX) is restored where it was meant.
  const rentEpoch =
    dump.account.rentEpoch >= Number.MAX_SAFE_INTEGER
      ? 0xffff_ffff_ffff_ffffn
      : BigInt(dump.account.rentEpoch);
  const lamports =
    dump.account.lamports > 0
      ? BigInt(dump.account.lamports)
      : chain.minimumBalanceForRentExemption(data.length);
  chain.setAccount({
    address,
    lamports,
    data,
    owner: dump.account.owner,
    executable: dump.account.executable,
    rentEpoch,
  });
  return { address, file, lamports };
}

export async function loadAccountFile(
  chain: SandboxChain,
  file: string,
  address?: string,
): Promise<LoadedDump> {
  const dump = parseAccountDump(await readFile(file, 'utf8'), file);
  return applyAccountDump(chain, dump, address ?? dump.pubkey, file);
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
  dumps.sort((a, b) => Number(a.dump.account.executable) - Number(b.dump.account.executable));
  return dumps.map(({ file, dump }) => applyAccountDump(chain, dump, dump.pubkey, file));
}
