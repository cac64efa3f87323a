/**
 * Baseline: a bare node:http server that answers the exact bytes our service answers
 * (status, headers as sent, body) from a table, with no routing, validation or logging.
 * Env: RESPONSES = path of a JSON file { [path]: RecordedResponse } (bench/lib/record-response.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedResponse } from '../lib/record-response.js';

const table = JSON.parse(readFileSync(process.env.RESPONSES!, 'utf8')) as Record<string, RecordedResponse>;
const prepared = new Map(
  Object.entries(table).map(([path, r]) => {
    const body = Buffer.from(r.body);
    const headers: Record<string, string> = Object.fromEntries(r.headers);
    // The length under the name the server sent it by (a chunked answer had none: it gets one).
    const lengthName = Object.keys(headers).find((name) => name.toLowerCase() === 'content-length');
    headers[lengthName ?? 'Content-Length'] = String(body.length);
    return [path, { status: r.status, headers, body }];
  }),
);

const server = createServer((req, res) => {
  const hit = prepared.get(req.url ?? '');
  if (hit === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(hit.status, hit.headers).end(hit.body);
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
