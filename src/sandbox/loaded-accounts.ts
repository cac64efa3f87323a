/**
 * Accounts a developer loads into the sandbox from `solana account --output json` dumps
 * (`risk-scan sandbox --account ADDRESS FILE`, `--accounts-dir DIR`): written over the seeded
 * chain, and listed as subjects in sandbox.json where a scanner can be pointed at them.
 */
import { basename } from 'node:path';
import { errorMessage } from '../errors.js';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../solana/programs.js';
import { addressText } from './chain/addresses.js';
import type { SandboxChain } from './chain/chain.js';
import { type LoadedDump, loadAccountFile, loadAccountsDir } from './chain/dumps.js';

export interface AccountsToLoad {
  /** `--account ADDRESS FILE`: the dump written at ADDRESS. */
  readonly files: readonly { readonly address: string; readonly file: string }[];
  /** `--accounts-dir DIR`: every `*.json` dump in DIR, at its own address. */
  readonly dirs: readonly string[];
}

export interface LoadedSubject {
  readonly name: `loaded:${string}`;
  readonly kind: 'token' | 'program' | 'wallet' | 'account';
  readonly address: string;
  readonly description: string;
}

/** A dump that cannot be read or applied; the message names the file. */
export class AccountLoadError extends Error {
  override readonly name = 'AccountLoadError';
}

const MINT_LENGTH = 82;
/** Token-2022 puts the account type after the 165-byte base: 1 is a mint. */
const T22_ACCOUNT_TYPE_OFFSET = 165;

/** Which endpoint scans this account: mints are tokens, executables programs, system accounts wallets. */
function kindOf(chain: SandboxChain, address: string): LoadedSubject['kind'] {
  const account = chain.getAccount(address);
  if (account === null) return 'account';
  if (account.executable()) return 'program';
  const owner = addressText(account.owner());
  const data = account.data();
  if (owner === TOKEN_PROGRAM && data.length === MINT_LENGTH) return 'token';
  const t22Mint = data.length === MINT_LENGTH || data[T22_ACCOUNT_TYPE_OFFSET] === 1;
  if (owner === TOKEN_2022_PROGRAM && t22Mint) return 'token';
  if (owner === SYSTEM_PROGRAM) return 'wallet';
  return 'account';
}

async function loadAll(chain: SandboxChain, toLoad: AccountsToLoad): Promise<LoadedDump[]> {
  const loaded: LoadedDump[] = [];
  for (const dir of toLoad.dirs) {
    loaded.push(
      ...(await loadAccountsDir(chain, dir).catch((e: unknown) => {
        throw new AccountLoadError(`Cannot load --accounts-dir ${dir}: ${reasonOf(e)}`);
      })),
    );
  }
  for (const { address, file } of toLoad.files) {
    loaded.push(
      await loadAccountFile(chain, file, address).catch((e: unknown) => {
        throw new AccountLoadError(`Cannot load --account ${address} ${file}: ${reasonOf(e)}`);
      }),
    );
  }
  return loaded;
}

const reasonOf = (e: unknown) => errorMessage(e).replace(/\.$/, '');

/**
 * Accounts the sandbox's payments stand on, by address, with what each is: a dump written over
 * one would break them (the real USDC mint's authority cannot mint the test payer's USDC).
 */
export type KeptAccounts = ReadonlyMap<string, string>;

/** Refuses a dump at an address the sandbox keeps, naming the account, the file and why. */
function refuseKept(loaded: readonly LoadedDump[], kept: KeptAccounts): void {
  for (const dump of loaded) {
    const what = kept.get(dump.address);
    if (what === undefined) continue;
    throw new AccountLoadError(
      `Cannot load ${dump.file}: ${dump.address} is ${what}, which the sandbox keeps for its payments; leave that dump out`,
    );
  }
}

/**
 * Loads the accounts into `chain`; resolves to them as subjects, in the order given. A dump at
 * an address in `kept` is refused (an AccountLoadError) and the start ends there.
 */
export async function loadAccounts(
  chain: SandboxChain,
  toLoad: AccountsToLoad,
  kept: KeptAccounts = new Map(),
): Promise<LoadedSubject[]> {
  const loaded = await loadAll(chain, toLoad);
  refuseKept(loaded, kept);
  return loaded.map((dump) => ({
    name: `loaded:${basename(dump.file)}`,
    kind: kindOf(chain, dump.address),
    address: dump.address,
    description: `loaded from ${dump.file}`,
  }));
}
