import { addressBytes, addressText, bytesEqualAt } from '../../chain/addresses.js';
import type { SandboxChain } from '../../chain/chain.js';
import {
  isMintData,
  isTokenAccountData,
  isTokenProgram,
  mintFields,
  tokenAccountFields,
  uiTokenAmount,
} from '../../chain/token-accounts.js';
import { type MethodTable, withContext } from '../context.js';
import { accountEncodingOf, encodeAccount } from '../encoding.js';
import { invalidParam, invalidParams } from '../errors.js';
import { addressParam, commitmentOf, configParam } from '../params.js';

const LARGEST_ACCOUNTS = 20;

function mintOf(chain: SandboxChain, address: string): { program: string; decimals: number; supply: bigint } {
  const account = chain.getAccount(address);
  if (!account) throw invalidParam('could not find account');
  const program = addressText(account.owner());
  if (!isMintData(program, account.data())) throw invalidParam('not a Token mint');
  const { decimals, supply } = mintFields(account.data());
  return { program, decimals, supply };
}

/** Token programs to scan for a getTokenAccountsBy* filter, plus the mint to match if given. */
function tokenFilter(chain: SandboxChain, filter: unknown): { programs: string[]; mint?: Uint8Array } {
  if (!filter || typeof filter !== 'object')
    throw invalidParams('expected a filter object with mint or programId');
  const { mint, programId } = filter as Record<string, unknown>;
  if (mint !== undefined) {
    const address = addressParam(mint);
    const account = chain.getAccount(address);
    // agave resolves the program from the mint account and refuses unknown mints.
    if (!account) throw invalidParam('could not find mint');
    const program = addressText(account.owner());
    if (!isTokenProgram(program)) throw invalidParam('not a Token mint');
    return { programs: [program], mint: addressBytes(address) };
  }
  if (programId !== undefined) {
    const program = addressParam(programId);
    if (!isTokenProgram(program)) throw invalidParam('unrecognized Token program id');
    return { programs: [program] };
  }
  throw invalidParams('expected a filter object with mint or programId');
}

export const tokenMethods: MethodTable = {
  getTokenSupply: (chain, [mint, config]) => {
    commitmentOf(configParam(config));
    const { decimals, supply } = mintOf(chain, addressParam(mint));
    return withContext(chain, uiTokenAmount(supply, decimals));
  },
  getTokenAccountBalance: (chain, [address, config]) => {
    commitmentOf(configParam(config));
    const account = chain.getAccount(addressParam(address));
    if (!account) throw invalidParam('could not find account');
    const program = addressText(account.owner());
    if (!isTokenAccountData(program, account.data())) throw invalidParam('not a Token account');
    const { mint, amount } = tokenAccountFields(account.data());
    const decimals = chain.getAccount(mint)?.data()[44] ?? 0;
    return withContext(chain, uiTokenAmount(amount, decimals));
  },
  getTokenLargestAccounts: (chain, [mint, config]) => {
    commitmentOf(configParam(config));
    const address = addressParam(mint);
    const { program, decimals } = mintOf(chain, address);
    const mintBytes = addressBytes(address);
    const holders: { address: string; amount: bigint }[] = [];
    for (const { address, data } of chain.programAccounts(program)) {
      if (!isTokenAccountData(program, data) || !bytesEqualAt(data, 0, mintBytes)) continue;
      holders.push({ address: addressText(address), amount: tokenAccountFields(data).amount });
    }
    holders.sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
    return withContext(
      chain,
      holders.slice(0, LARGEST_ACCOUNTS).map((holder) => ({
        address: holder.address,
        ...uiTokenAmount(holder.amount, decimals),
      })),
    );
  },
  getTokenAccountsByOwner: (chain, [owner, filter, config]) => {
    const ownerBytes = addressBytes(addressParam(owner));
    const { programs, mint } = tokenFilter(chain, filter);
    const options = configParam(config);
    commitmentOf(options);
    const encoding = accountEncodingOf(options);
    const value = [];
    for (const program of programs) {
      for (const { address, account, data } of chain.programAccounts(program)) {
        if (!isTokenAccountData(program, data) || !bytesEqualAt(data, 32, ownerBytes)) continue;
        if (mint && !bytesEqualAt(data, 0, mint)) continue;
        value.push({ pubkey: addressText(address), account: encodeAccount(account, encoding, chain) });
      }
    }
    return withContext(chain, value);
  },
};
