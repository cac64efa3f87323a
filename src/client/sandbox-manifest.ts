/**
 * The running sandbox's manifest (SANDBOX_DIR/sandbox.json): where a paying client finds the
 * API, the RPC and the funded test payer when it is given none of them.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export interface SandboxManifest {
  readonly apiUrl?: string;
  readonly rpcUrl?: string;
  readonly payer?: { readonly address?: string; readonly keypair?: string };
}

export async function readManifest(dir: string): Promise<{ path: string; manifest: SandboxManifest } | null> {
  const path = resolve(dir, 'sandbox.json');
  try {
    return { path, manifest: JSON.parse(await readFile(path, 'utf8')) as SandboxManifest };
  } catch {
    return null;
  }
}
