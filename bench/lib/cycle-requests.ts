/**
 * autocannon sending each request of a list once, in order, over all its connections: for
 * paid calls, where every request carries a payment of its own. Prints autocannon's JSON
 * result, as `autocannon -j`. argv: origin, file of requests ([{ path, headers }]), connections.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [origin, requestsFile, connections] = process.argv.slice(2) as [string, string, string];
const list = JSON.parse(readFileSync(requestsFile, 'utf8')) as {
  path: string;
  headers: Record<string, string>;
}[];
let next = 0;

const result = await autocannon({
  url: origin,
  connections: Number(connections),
  amount: list.length,
  // Checked for the end every 10 ms, not every second: a round lasts as long as its calls.
  sampleInt: 10,
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => {
        const { path, headers } = list[next++ % list.length]!;
        return { ...request, path, headers: { ...request.headers, ...headers } };
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
