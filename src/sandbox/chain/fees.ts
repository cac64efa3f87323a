import { COMPUTE_BUDGET_PROGRAM } from './addresses.js';
import type { WireTransaction } from './wire.js';

export const LAMPORTS_PER_SIGNATURE = 5_000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000;
const MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT = 3_000;
const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;

// Builtins get a 3k default allocation instead of 200k when no SetComputeUnitLimit is present (agave's
// compute-budget defaults); LiteSVM charges by the same rule, so the fee below equals its real debit.
const BUILTIN_PROGRAMS = new Set([
  '11111111111111111111111111111111',
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

function readU32(data: Uint8Array, offset: number): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);
}

function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

export interface ComputeBudget {
  unitLimit: bigint;
  microLamportsPerUnit: bigint;
}

export function computeBudgetOf(tx: Pick<WireTransaction, 'instructions' | 'staticAccounts'>): ComputeBudget {
  let explicitLimit: bigint | undefined;
  let price = 0n;
  let defaultLimit = 0;
  for (const ix of tx.instructions) {
    const program = tx.staticAccounts[ix.programIdIndex];
    if (program === COMPUTE_BUDGET_PROGRAM) {
      if (ix.data[0] === 2 && ix.data.length >= 5) explicitLimit = BigInt(readU32(ix.data, 1));
      if (ix.data[0] === 3 && ix.data.length >= 9) price = readU64(ix.data, 1);
    }
    defaultLimit +=
      program && BUILTIN_PROGRAMS.has(program)
        ? MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT
        : DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
  }
  const limit = explicitLimit ?? BigInt(defaultLimit);
  return {
    unitLimit: limit > BigInt(MAX_COMPUTE_UNIT_LIMIT) ? BigInt(MAX_COMPUTE_UNIT_LIMIT) : limit,
    microLamportsPerUnit: price,
  };
}

/** Mainnet's fee: 5000 lamports per signature plus ceil(price × limit / 10^6) priority fee. */
export function transactionFee(
  tx: Pick<WireTransaction, 'instructions' | 'staticAccounts' | 'header'>,
): bigint {
  const { unitLimit, microLamportsPerUnit } = computeBudgetOf(tx);
  const priority =
    (microLamportsPerUnit * unitLimit + MICRO_LAMPORTS_PER_LAMPORT - 1n) / MICRO_LAMPORTS_PER_LAMPORT;
  return LAMPORTS_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures) + priority;
}
