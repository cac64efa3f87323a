/**
 * Everything /simulate/tx reads from RPC (the only module of this scan that does I/O):
 *
 *   0. v0 with lookup tables only: the tables, to know which accounts the transaction writes;
 *   1. in parallel, each with `minContextSlot` = the slot of step 0 (when there was one):
 *      - `simulateTransaction` (`sigVerify: false`, `replaceRecentBlockhash: true`) returning
 *        the post-state of every account the transaction writes;
 *      - `getMultipleAccounts` of every account the transaction names: their state now (the
 *        "before" of the comparison), owners and programs included;
 *      - the ProgramData header (45 bytes) of every named account that could be an upgradeable
 *        program, for its upgrade authority.
 *
 * No RPC method reads state at a given slot, so "before" and "after" are taken at the same
 * slot only as far as the RPC allows: both requests leave together with the same minimum slot,
 * and both answers' context slots are kept. When they differ, the assessment says so.
 */
import {
  type Address,
  type Base64EncodedWireTransaction,
  getAddressDecoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';
import { findProgramDataAddress } from '../../solana/decoders/upgradeable-loader.js';
import { WELL_KNOWN_ADDRESS_NAMES } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { rpcReadFailed } from '../scanner.js';

export interface AccountState {
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly data: Uint8Array;
}

export interface Simulation {
  readonly err: unknown;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint | null;
  /** The fee the RPC reports (recent nodes do), else null. */
  readonly fee: bigint | null;
}

export interface SimulateFacts {
  /** Base64 wire transaction, as it was simulated. */
  readonly wire: string;
  /** Accounts the lookup tables load, in the runtime's order; null when a table could not be read. */
  readonly loaded: { readonly writable: readonly string[]; readonly readonly: readonly string[] } | null;
  /** The lookup tables that do not exist (or are not tables): the transaction cannot run. */
  readonly missingTables: readonly string[];
  /** Every account of the transaction, in order (static, then loaded writable, then loaded readonly). */
  readonly accountKeys: readonly string[];
  readonly writable: readonly string[];
  /** State before, by address (null: no such account). */
  readonly pre: ReadonlyMap<string, AccountState | null>;
  /** State after the simulation, of the writable accounts (null: the account is gone). */
  readonly post: ReadonlyMap<string, AccountState | null>;
  /** ProgramData header of upgradeable programs, by program address. */
  readonly programData: ReadonlyMap<string, Uint8Array | null>;
  readonly simulation: Simulation | null;
  readonly slots: { readonly pre: bigint; readonly simulated: bigint | null };
}

/** getMultipleAccounts takes at most 100 addresses per call. */
const ACCOUNTS_PER_CALL = 100;
/** An address lookup table's header; the addresses follow it, 32 bytes each. */
const LOOKUP_TABLE_META_SIZE = 56;
const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';

type RawAccount = Readonly<{
  lamports: bigint;
  owner: string;
  executable: boolean;
  data: readonly [string, string] | Readonly<[string, 'base64']>;
}> | null;

const stateOf = (raw: RawAccount): AccountState | null =>
  raw === null
    ? null
    : {
        lamports: BigInt(raw.lamports),
        owner: raw.owner,
        executable: raw.executable,
        data: new Uint8Array(Buffer.from(raw.data[0], 'base64')),
      };

function rpcFailed(e: unknown): never {
  throw rpcReadFailed(e);
}

interface Message {
  readonly staticAccounts: readonly string[];
  readonly header: {
    readonly numSignerAccounts: number;
    readonly numReadonlySignerAccounts: number;
    readonly numReadonlyNonSignerAccounts: number;
  };
  readonly lookups: readonly { table: string; writable: readonly number[]; readonly: readonly number[] }[];
}

function messageOf(wire: string): Message {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const m = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  const lookups = 'addressTableLookups' in m ? (m.addressTableLookups ?? []) : [];
  return {
    staticAccounts: m.staticAccounts,
    header: m.header,
    lookups: lookups.map((l) => ({
      table: l.lookupTableAddress,
      writable: l.writableIndexes,
      readonly: l.readonlyIndexes,
    })),
  };
}

/** Static accounts the header marks writable. */
function staticWritable(m: Message): string[] {
  const { numSignerAccounts: s, numReadonlySignerAccounts: rs, numReadonlyNonSignerAccounts: rn } = m.header;
  const n = m.staticAccounts.length;
  return m.staticAccounts.filter((_, i) => (i < s ? i < s - rs : i < n - rn));
}

async function readAccounts(
  rpc: SolanaRpc,
  keys: readonly string[],
  options: { minContextSlot?: bigint; dataSlice?: { offset: number; length: number } },
  send: { abortSignal?: AbortSignal },
): Promise<{ slot: bigint; states: (AccountState | null)[] }> {
  const chunks: string[][] = [];
  for (let i = 0; i < keys.length; i += ACCOUNTS_PER_CALL) chunks.push(keys.slice(i, i + ACCOUNTS_PER_CALL));
  const answers = await Promise.all(
    chunks.map((chunk) =>
      rpc
        // The simulation's commitment (kit's default too, said here because the two reads must match).
        .getMultipleAccounts(chunk as Address[], { encoding: 'base64', commitment: 'confirmed', ...options })
        .send(send)
        .catch(rpcFailed),
    ),
  );
  // The oldest slot any chunk was read at.
  let slot = answers[0]?.context.slot ?? 0n;
  for (const a of answers) if (a.context.slot < slot) slot = a.context.slot;
  return {
    slot,
    states: answers.flatMap((a) => a.value.map((v) => stateOf(v as RawAccount))),
  };
}

/** Step 0: the lookup tables' addresses, or which tables are missing. */
async function resolveLookups(rpc: SolanaRpc, m: Message, send: { abortSignal?: AbortSignal }) {
  if (m.lookups.length === 0) return { loaded: { writable: [], readonly: [] }, missing: [], slot: null };
  const read = await readAccounts(
    rpc,
    m.lookups.map((l) => l.table),
    {},
    send,
  );
  const writable: string[] = [];
  const readonly: string[] = [];
  const missing: string[] = [];
  for (const [i, lookup] of m.lookups.entries()) {
    const table = read.states[i];
    if (table == null || table.owner !== ADDRESS_LOOKUP_TABLE_PROGRAM) {
      missing.push(lookup.table);
      continue;
    }
    const at = (index: number) => {
      const start = LOOKUP_TABLE_META_SIZE + index * 32;
      const bytes = table.data.subarray(start, start + 32);
      return bytes.length === 32 ? (bs58(bytes) as string) : null;
    };
    for (const [indexes, into] of [
      [lookup.writable, writable],
      [lookup.readonly, readonly],
    ] as const) {
      for (const index of indexes) {
        const key = at(index);
        if (key === null) missing.push(lookup.table);
        else into.push(key);
      }
    }
  }
  return { loaded: missing.length > 0 ? null : { writable, readonly }, missing, slot: read.slot };
}

const bs58 = (bytes: Uint8Array) => getAddressDecoder().decode(bytes);

/** Accounts (signers left out) that may be upgradeable programs: not well-known programs. */
async function programDataCandidates(keys: readonly string[]): Promise<[string, string][]> {
  const candidates = keys.filter((k) => !WELL_KNOWN_ADDRESS_NAMES.has(k as Address));
  return Promise.all(
    candidates.map(async (k) => [k, await findProgramDataAddress(k as Address)] as [string, string]),
  );
}

type RawSimulation = Readonly<{
  err: unknown;
  logs: readonly string[] | null;
  unitsConsumed?: bigint;
  fee?: bigint | null;
  accounts?: readonly RawAccount[] | null;
}>;

async function simulate(
  rpc: SolanaRpc,
  wire: string,
  writable: readonly string[],
  minContextSlot: bigint | undefined,
  send: { abortSignal?: AbortSignal },
) {
  const config = {
    encoding: 'base64',
    sigVerify: false,
    replaceRecentBlockhash: true,
    commitment: 'confirmed',
    accounts: { addresses: writable, encoding: 'base64' },
    ...(minContextSlot === undefined ? {} : { minContextSlot }),
  };
  // kit's overloads do not name `accounts` with base64 together with replaceRecentBlockhash.
  const answer = await (
    rpc.simulateTransaction as unknown as (w: string, c: object) => { send(o: object): Promise<unknown> }
  )(wire as Base64EncodedWireTransaction, config)
    .send(send)
    .catch(rpcFailed);
  return answer as { context: { slot: bigint }; value: RawSimulation };
}

export async function gatherSimulateFacts(
  rpc: SolanaRpc,
  wire: string,
  abortSignal?: AbortSignal,
): Promise<SimulateFacts> {
  const send = abortSignal ? { abortSignal } : {};
  const m = messageOf(wire);
  const lookups = await resolveLookups(rpc, m, send);
  const loaded = lookups.loaded;
  const accountKeys = [...m.staticAccounts, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const writable = [...staticWritable(m), ...(loaded?.writable ?? [])];
  const minContextSlot = lookups.slot ?? undefined;
  const slotOption = minContextSlot === undefined ? {} : { minContextSlot };
  // Lookup tables may name one address many times: each is read once.
  const distinct = [...new Set(accountKeys)];
  const candidates = await programDataCandidates(
    distinct.filter((k) => accountKeys.indexOf(k) >= m.header.numSignerAccounts),
  );
  const [before, programData, simulated] = await Promise.all([
    readAccounts(rpc, distinct, slotOption, send),
    readAccounts(
      rpc,
      candidates.map(([, pd]) => pd),
      { ...slotOption, dataSlice: { offset: 0, length: 45 } },
      send,
    ),
    loaded === null ? Promise.resolve(null) : simulate(rpc, wire, writable, minContextSlot, send),
  ]);
  const pre = new Map(distinct.map((k, i) => [k, before.states[i] ?? null]));
  const post = new Map<string, AccountState | null>();
  const value = simulated?.value;
  const accounts = value?.accounts;
  if (accounts) {
    for (const [i, k] of writable.entries()) post.set(k, stateOf(accounts[i] ?? null));
  }
  return {
    wire,
    loaded,
    missingTables: lookups.missing,
    accountKeys,
    writable,
    pre,
    post,
    programData: new Map(candidates.map(([program], i) => [program, programData.states[i]?.data ?? null])),
    simulation:
      value === undefined
        ? null
        : {
            err: value.err ?? null,
            logs: value.logs ?? [],
            unitsConsumed: value.unitsConsumed ?? null,
            fee: value.fee ?? null,
          },
    slots: { pre: before.slot, simulated: simulated?.context.slot ?? null },
  };
}
