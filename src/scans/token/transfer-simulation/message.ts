/**
 * Builds the transfer a wallet would send to pay a new recipient: create the recipient's
 * associated token account (idempotent), then `transferChecked` with the transfer hook's extra
 * accounts appended, resolved from the hook's validation account by @solana-program/token-2022
 * (every seed kind of spl-transfer-hook-interface). The resolver reads accounts through a
 * read-only view of what the scan already holds: resolving costs no round trip, and a hook whose
 * seeds need an account the scan did not read makes the simulation unavailable, not wrong.
 */
import {
  type AccountMeta,
  AccountRole,
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  type GetAccountInfoApi,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  pipe,
  type Rpc,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  resolveExtraAccountMetasForExecute,
} from '@solana-program/token-2022';
import {
  findAssociatedTokenAddress,
  findExtraAccountMetaListAddress,
} from '../../../solana/program-address.js';
import type { RawAccount } from '../../token-facts/model.js';

/** Any blockhash: the RPC replaces it (`replaceRecentBlockhash`). */
const PLACEHOLDER_BLOCKHASH = '11111111111111111111111111111111' as Blockhash;

/** A recipient nobody has used: 32 random bytes (an ATA owner need not be on the curve). */
export function freshOwner(): Address {
  return getAddressDecoder().decode(crypto.getRandomValues(new Uint8Array(32)));
}

/** getAccountInfo answered from accounts already read; any other account is refused. */
function knownAccountsRpc(known: readonly RawAccount[]): Rpc<GetAccountInfoApi> {
  const byAddress = new Map(known.map((a) => [a.address as string, a]));
  const getAccountInfo = (address: Address) => ({
    send: async () => {
      const account = byAddress.get(address);
      if (account === undefined) {
        throw new Error(`the hook's extra accounts depend on ${address}, which the scan did not read`);
      }
      return {
        context: { slot: 0n },
        value: {
          data: [Buffer.from(account.data).toString('base64'), 'base64'],
          executable: false,
          lamports: account.lamports,
          owner: account.owner,
          space: BigInt(account.data.length),
        },
      };
    },
  });
  return { getAccountInfo } as unknown as Rpc<GetAccountInfoApi>;
}

export interface TransferPlan {
  readonly mint: RawAccount;
  readonly decimals: number;
  readonly source: RawAccount;
  /** The source's owner: it signs the transfer. */
  readonly owner: Address;
  /** Pays the fee and the new account's rent; default: the owner, as in the wallet it signs with. */
  readonly feePayer?: Address;
  readonly amount: bigint;
  readonly recipient: Address;
  readonly hookProgram: Address | null;
  /** The hook's validation account, null when it does not exist. */
  readonly validation: RawAccount | null;
  /** A real blockhash, to sign and send the same transfer (tests); default: one the RPC replaces. */
  readonly blockhash?: { readonly blockhash: Blockhash; readonly lastValidBlockHeight: bigint };
}

async function hookAccounts(plan: TransferPlan, destination: Address): Promise<AccountMeta[]> {
  if (plan.hookProgram === null) return [];
  const [validationAddress] = await findExtraAccountMetaListAddress({
    mint: plan.mint.address,
    hookProgram: plan.hookProgram,
  });
  if (plan.validation === null) {
    // No list: Token-2022 still needs the hook program (and takes the missing list as empty).
    return [
      { address: plan.hookProgram, role: AccountRole.READONLY },
      { address: validationAddress, role: AccountRole.READONLY },
    ];
  }
  return resolveExtraAccountMetasForExecute({
    rpc: knownAccountsRpc([plan.mint, plan.source, plan.validation]),
    transferHookProgramAddress: plan.hookProgram,
    source: plan.source.address,
    mint: plan.mint.address,
    destination,
    owner: plan.owner,
    amount: plan.amount,
    validateStatePubkey: validationAddress,
  });
}

/** The unsigned wire transaction (base64) and the recipient's token account. */
export async function transferTransaction(
  plan: TransferPlan,
): Promise<{ wire: string; destination: Address }> {
  const tokenProgram = plan.mint.owner;
  const owner = createNoopSigner(plan.owner);
  const payer =
    plan.feePayer === undefined || plan.feePayer === plan.owner ? owner : createNoopSigner(plan.feePayer);
  const [destination] = await findAssociatedTokenAddress({
    owner: plan.recipient,
    mint: plan.mint.address,
    tokenProgram,
  });
  const transfer = getTransferCheckedInstruction(
    {
      source: plan.source.address,
      mint: plan.mint.address,
      destination,
      authority: owner,
      amount: plan.amount,
      decimals: plan.decimals,
    },
    { programAddress: tokenProgram },
  );
  const extra = await hookAccounts(plan, destination);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        plan.blockhash ?? { blockhash: PLACEHOLDER_BLOCKHASH, lastValidBlockHeight: 0n },
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({
            payer,
            ata: destination,
            owner: plan.recipient,
            mint: plan.mint.address,
            tokenProgram,
          }),
          { ...transfer, accounts: [...transfer.accounts, ...extra] },
        ],
        m,
      ),
  );
  return { wire: getBase64EncodedWireTransaction(compileTransaction(message)), destination };
}
