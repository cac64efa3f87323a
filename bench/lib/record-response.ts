/** A server's answer recorded as it was sent, for the bare node:http baseline to answer again. */
import { request } from 'node:http';

/** The answer's status, its header lines as sent (names in their case, in order), and its body. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** Written by node:http itself on every answer. */
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * A GET of `url` answered by a server, with its header names as they were sent: fetch would
 * give them lowercased, and the baseline would then write other bytes than the server does
 * (node:http also lowercases each name of 4–17 characters to look for the ones it handles,
 * which costs a string per name whose case changes).
 */
export function recordResponse(url: string, headers: Record<string, string> = {}): Promise<RecordedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const raw = res.rawHeaders;
      const kept: [string, string][] = [];
      for (let i = 0; i < raw.length; i += 2) {
        if (!WRITTEN_BY_NODE.has(raw[i]!.toLowerCase())) kept.push([raw[i]!, raw[i + 1]!]);
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
