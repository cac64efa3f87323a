/**
 * Reads a published list, bounded in size and time: an HTTP(S) URL or a local file. A list that
 * is unreachable, too large or too slow is a reason, never an error and never a wait past the cap.
 */
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { deadline } from '../../deadline.js';
import { errorMessage } from '../../errors.js';

export interface ReadLimits {
  /** Bytes of answer read at most. */
  readonly maxBytes: number;
  /** The whole read (connection, headers and body) within this long. */
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
  /** Aborts a read in flight (the service is stopping). */
  readonly signal?: AbortSignal;
}

export type ListRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

const failed = (reason: string): ListRead => ({ ok: false, reason });
const tooLarge = (limits: ReadLimits) => failed(`the list is larger than ${limits.maxBytes} bytes`);

export const isUrl = (source: string) => /^https?:\/\//i.test(source);

async function bodyOf(response: Response, limits: ReadLimits): Promise<ListRead> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return tooLarge(limits);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream: nothing past the cap is read.
    if (size > limits.maxBytes) return tooLarge(limits);
    chunks.push(chunk);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

async function readUrl(url: string, limits: ReadLimits): Promise<ListRead> {
  const { signal: timeout, clear } = deadline(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([timeout, limits.signal]) : timeout;
  try {
    const response = await (limits.fetch ?? fetch)(url, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return failed(`HTTP ${response.status}`);
    }
    return await bodyOf(response, limits);
  } catch (e) {
    if (timeout.aborted) return failed(`no complete answer within ${limits.timeoutMs} ms`);
    return failed(errorMessage(e));
  } finally {
    clear();
  }
}

async function readFileBounded(path: string, limits: ReadLimits): Promise<ListRead> {
  try {
    const file = await open(path.startsWith('file:') ? fileURLToPath(path) : path, 'r');
    try {
      const { size } = await file.stat();
      if (size > limits.maxBytes) return tooLarge(limits);
      return { ok: true, text: await file.readFile('utf8') };
    } finally {
      await file.close();
    }
  } catch (e) {
    return failed(errorMessage(e));
  }
}

/** The list at `source` (an http(s) URL, else a file path or file: URL), within `limits`. */
export function readList(source: string, limits: ReadLimits): Promise<ListRead> {
  return isUrl(source) ? readUrl(source, limits) : readFileBounded(source, limits);
}
