/**
 * Account dumps in the shape `solana account --output json <address>` writes:
 *   { "pubkey": "...", "account": { "lamports", "data": ["<base64>", "base64"], "owner",
 *     "executable", "rentEpoch", "space" } }
 * Used by the tests to load mainnet fixtures and by the sandbox to seed accounts.
 */
import { type Address, isAddress } from '@solana/kit';
import { z } from 'zod';

export interface AccountDump {
  readonly address: Address;
  readonly lamports: bigint;
  readonly owner: Address;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly data: Uint8Array;
}

const U64_MAX = 2n ** 64n - 1n;

/**
 * JSON numbers lose precision above 2^53. Rent epochs are either small or u64::MAX (rent-exempt
 * accounts), which JSON.parse rounds up to exactly 2^64; map that back, reject anything else imprecise.
 */
const u64FromJsonNumber = z
  .number()
  .nonnegative()
  .transform((value, context) => {
    if (Number.isSafeInteger(value)) return BigInt(value);
    if (value === 2 ** 64) return U64_MAX;
    context.addIssue({ code: 'custom', message: `${value} is not an exact u64 in JSON` });
    return z.NEVER;
  });

const addressSchema = z.string().refine(isAddress, 'not a base58 address of 32 bytes');

const accountDumpSchema = z.object({
  pubkey: addressSchema,
  account: z.object({
    lamports: u64FromJsonNumber,
    data: z.tuple([z.string(), z.literal('base64')]),
    owner: addressSchema,
    executable: z.boolean(),
    rentEpoch: u64FromJsonNumber,
    space: z.number().int().nonnegative().optional(),
  }),
});

export class AccountDumpError extends Error {
  override readonly name = 'AccountDumpError';
}

/** Validates a parsed dump and decodes its data. Throws AccountDumpError on any mismatch. */
export function parseAccountDump(json: unknown): AccountDump {
  const parsed = accountDumpSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new AccountDumpError(`invalid account dump: ${issues.join('; ')}`);
  }
  const { pubkey, account } = parsed.data;
  const data = new Uint8Array(Buffer.from(account.data[0], 'base64'));
  // Buffer.from silently skips invalid characters, so re-encode to prove the text was clean base64.
  if (Buffer.from(data).toString('base64') !== account.data[0]) {
    throw new AccountDumpError(`account ${pubkey}: data is not canonical base64`);
  }
  if (account.space !== undefined && account.space !== data.length) {
    throw new AccountDumpError(`account ${pubkey}: space ${account.space} but ${data.length} data bytes`);
  }
  return {
    address: pubkey as Address,
    lamports: account.lamports,
    owner: account.owner as Address,
    executable: account.executable,
    rentEpoch: account.rentEpoch,
    data,
  };
}
