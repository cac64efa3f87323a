import bs58 from 'bs58';
import { addressText, bytesEqualAt } from '../../chain/addresses.js';
import { type MethodTable, withContext } from '../context.js';
import { accountEncodingOf, encodeAccount } from '../encoding.js';
import { invalidParam, invalidParams } from '../errors.js';
import { addressParam, arrayParam, type Config, commitmentOf, configParam, integerParam } from '../params.js';

const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;

type AccountFilter = { dataSize: number } | { offset: number; bytes: Uint8Array };

function filtersOf(config: Config): AccountFilter[] {
  const raw = config.filters;
  if (raw === undefined || raw === null) return [];
  const filters = arrayParam(raw, 'filters');
  if (filters.length > MAX_FILTERS) throw invalidParam(`too many filters provided; max ${MAX_FILTERS}`);
  return filters.map((filter) => {
    if (!filter || typeof filter !== 'object') throw invalidParams('invalid filter');
    const { dataSize, memcmp } = filter as Record<string, unknown>;
    if (dataSize !== undefined) return { dataSize: Number(integerParam(dataSize, 'dataSize')) };
    if (!memcmp || typeof memcmp !== 'object')
      throw invalidParams('unknown filter; expected memcmp or dataSize');
    const { offset, bytes, encoding } = memcmp as Record<string, unknown>;
    if (typeof bytes !== 'string') throw invalidParams('invalid type for memcmp.bytes');
    let decoded: Uint8Array | undefined;
    if (encoding === 'base64') decoded = new Uint8Array(Buffer.from(bytes, 'base64'));
    else if (encoding === undefined || encoding === 'base58') decoded = bs58.decodeUnsafe(bytes);
    else throw invalidParams(`unknown memcmp encoding ${String(encoding)}`);
    if (!decoded) throw invalidParam('Invalid');
    if (decoded.length > MAX_MEMCMP_BYTES) throw invalidParam(`filter bytes exceed ${MAX_MEMCMP_BYTES}`);
    return { offset: Number(integerParam(offset, 'offset')), bytes: decoded };
  });
}

function matches(data: Uint8Array, filters: readonly AccountFilter[]): boolean {
  return filters.every((filter) =>
    'dataSize' in filter ? data.length === filter.dataSize : bytesEqualAt(data, filter.offset, filter.bytes),
  );
}

export const accountMethods: MethodTable = {
  getBalance: (chain, [address, config]) => {
    const key = addressParam(address);
    commitmentOf(configParam(config));
    return withContext(chain, chain.getAccount(key)?.lamports() ?? 0n);
  },
  getAccountInfo: (chain, [address, config]) => {
    const key = addressParam(address);
    const options = configParam(config);
    commitmentOf(options);
    const encoding = accountEncodingOf(options);
    const account = chain.getAccount(key);
    return withContext(chain, account ? encodeAccount(account, encoding, chain) : null);
  },
  getMultipleAccounts: (chain, [addresses, config]) => {
    const keys = arrayParam(addresses, 'pubkeys');
    if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    }
    const validated = keys.map(addressParam);
    const options = configParam(config);
    commitmentOf(options);
    const encoding = accountEncodingOf(options);
    return withContext(
      chain,
      validated.map((key) => {
        const account = chain.getAccount(key);
        return account ? encodeAccount(account, encoding, chain) : null;
      }),
    );
  },
  getProgramAccounts: (chain, [program, config]) => {
    const owner = addressParam(program);
    const options = configParam(config);
    commitmentOf(options);
    const encoding = accountEncodingOf(options);
    const filters = filtersOf(options);
    const value = [];
    for (const { address, account, data } of chain.programAccounts(owner)) {
      if (!matches(data, filters)) continue;
      value.push({ pubkey: addressText(address), account: encodeAccount(account, encoding, chain) });
    }
    return options.withContext === true ? withContext(chain, value) : value;
  },
};
