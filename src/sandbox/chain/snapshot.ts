import { readFile, writeFile } from 'node:fs/promises';
import type { ChainState, SandboxChain } from './chain.js';

/**
 * A whole-chain snapshot: LiteSVM's own serialized state (every account, sysvars, its signature history)
 * plus what the sandbox keeps beside it (slot, blockhash window, transaction history, faucet key).
 * LiteSVM 1.5 serializes all accounts itself (`toBytes`), so no list of touched addresses is needed.
 */
export type ChainSnapshot = Readonly<ChainState>;

export function takeSnapshot(chain: SandboxChain): ChainSnapshot {
  return chain.exportState();
}

/** Replaces the chain's state in place, so servers and subscribers holding the chain keep working. */
export function restoreSnapshot(chain: SandboxChain, snapshot: ChainSnapshot): void {
  chain.importState(snapshot);
}

const FORMAT = 'sandbox-chain-snapshot/1';

// Tagged values keep bigints and byte arrays exact through JSON.
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const tagged = value as Record<string, unknown>;
    if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint);
    if (typeof tagged.$bytes === 'string') return new Uint8Array(Buffer.from(tagged.$bytes, 'base64'));
  }
  return value;
}

/** JSON with bigints and byte arrays kept exact (tagged), for snapshots and what is kept beside them. */
export function serializeTagged(value: unknown): string {
  return JSON.stringify(value, replacer);
}

export function parseTagged(text: string): unknown {
  return JSON.parse(text, reviver);
}

export function serializeSnapshot(snapshot: ChainSnapshot): string {
  return serializeTagged({ format: FORMAT, ...snapshot });
}

export function deserializeSnapshot(text: string): ChainSnapshot {
  const parsed = parseTagged(text) as ChainState & { format?: string };
  if (parsed.format !== FORMAT)
    throw new Error(`not a sandbox chain snapshot (format ${String(parsed.format)})`);
  const { format: _format, ...state } = parsed;
  return state;
}

export async function saveSnapshotFile(chain: SandboxChain, path: string): Promise<void> {
  await writeFile(path, serializeSnapshot(takeSnapshot(chain)));
}

export async function loadSnapshotFile(chain: SandboxChain, path: string): Promise<void> {
  restoreSnapshot(chain, deserializeSnapshot(await readFile(path, 'utf8')));
}
