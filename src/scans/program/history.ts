/**
 * Reads what a program's ProgramData account went through from the loader instructions of
 * the transactions that touched it — top level and inner (upgrades through a multisig are
 * inner instructions) — decoded from base64, never from logs.
 */
import { type Address, getBase58Encoder } from '@solana/kit';
import { BPF_UPGRADEABLE_LOADER } from '../../solana/programs.js';
import { decodeTransaction } from '../tx/decode.js';

export type ProgramEventKind = 'deploy' | 'upgrade' | 'set_authority' | 'close' | 'extend';

export interface ProgramEvent {
  readonly kind: ProgramEventKind;
  readonly signature: string;
  readonly slot: bigint;
  readonly blockTime: number | null;
  /** For set_authority: the new authority, null when the program was made immutable. */
  readonly newAuthority?: string | null;
}

interface LoaderInstruction {
  readonly accounts: readonly string[];
  readonly data: Uint8Array;
}

/** Which account of each loader instruction is the ProgramData account. */
const PROGRAM_DATA_INDEX: Readonly<Record<number, [ProgramEventKind, number]>> = {
  2: ['deploy', 1],
  3: ['upgrade', 0],
  4: ['set_authority', 0],
  5: ['close', 0],
  6: ['extend', 0],
  7: ['set_authority', 0],
  9: ['extend', 0],
};

function eventOf(
  ix: LoaderInstruction,
  programData: string,
): Omit<ProgramEvent, 'signature' | 'slot' | 'blockTime'> | null {
  if (ix.data.length < 4) return null;
  const tag = new DataView(ix.data.buffer, ix.data.byteOffset, 4).getUint32(0, true);
  const known = PROGRAM_DATA_INDEX[tag];
  if (known === undefined || ix.accounts[known[1]] !== programData) return null;
  const [kind] = known;
  if (kind === 'set_authority') return { kind, newAuthority: ix.accounts[2] ?? null };
  return { kind };
}

export interface RecordedTransaction {
  readonly signature: string;
  readonly slot: bigint;
  readonly blockTime: number | null;
  readonly wire: string;
  readonly err: unknown;
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  readonly innerInstructions: readonly {
    readonly instructions: readonly {
      programIdIndex: number | bigint;
      accounts: readonly (number | bigint)[];
      data: string;
    }[];
  }[];
}

/** Every instruction of a transaction, top level and inner, with its program and account addresses. */
export function instructionsIn(
  tx: RecordedTransaction,
): (LoaderInstruction & { readonly program: string })[] {
  const base58 = getBase58Encoder();
  const decoded = decodeTransaction(tx.wire, tx.loadedAddresses);
  const inner = tx.innerInstructions
    .flatMap((group) => group.instructions)
    .map((ix) => ({
      program: decoded.accountKeys[Number(ix.programIdIndex)] ?? '',
      accounts: ix.accounts.map((i) => decoded.accountKeys[Number(i)] ?? ''),
      data: new Uint8Array(base58.encode(ix.data)),
    }));
  return [...decoded.instructions, ...inner];
}

/** Every instruction of `program` in a transaction, top level and inner, with account addresses. */
export function instructionsOf(tx: RecordedTransaction, program: Address): LoaderInstruction[] {
  return instructionsIn(tx).filter((ix) => ix.program === program);
}

export function programEvents(
  transactions: readonly RecordedTransaction[],
  programData: Address,
): ProgramEvent[] {
  const events: ProgramEvent[] = [];
  for (const tx of transactions) {
    if (tx.err !== null && tx.err !== undefined) continue; // a failed management transaction changed nothing
    for (const ix of instructionsOf(tx, BPF_UPGRADEABLE_LOADER)) {
      const event = eventOf(ix, programData);
      if (event) events.push({ ...event, signature: tx.signature, slot: tx.slot, blockTime: tx.blockTime });
    }
  }
  return events.sort((a, b) => Number(a.slot - b.slot));
}
