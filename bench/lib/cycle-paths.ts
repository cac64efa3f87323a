/**
 * autocannon against many paths of one server: each request takes the next path of the list
 * (shared by all connections, so consecutive requests never repeat a path until the list
 * wraps). The CLI can only repeat one URL. Prints autocannon's JSON result, as `autocannon -j`.
 * argv: origin, file of paths (one JSON array), seconds, connections.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [origin, pathsFile, seconds, connections] = process.argv.slice(2) as [string, string, string, string];
const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
let next = 0;

const result = await autocannon({
  url: origin,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => {
        const path = paths[next]!;
        next = (next + 1) % paths.length;
        return { ...request, path };
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
