/** Child processes for benchmarks: servers that announce their port, and autocannon runs. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** CPU time (user + system) the process has used, in microseconds. */
  cpuMicros(): number;
  stop(): Promise<void>;
}

const TSX = ['--import', 'tsx'];

/**
 * The CPUs of a pinned benchmark: servers on one, the load generator on another, so neither
 * steals the other's core and a server's capacity is what gets measured. Null when the machine
 * has one CPU or no `taskset` (then nothing is pinned).
 */
export const PINNING: { readonly server: number; readonly load: number } | null =
  availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0
    ? { server: 0, load: 1 }
    : null;

/** `node args…`, run on `cpu` when pinning is possible. */
function nodeCommand(args: readonly string[], cpu: number | undefined): [string, string[]] {
  if (cpu === undefined || PINNING === null) return [process.execPath, [...args]];
  return ['taskset', ['-c', String(cpu), process.execPath, ...args]];
}

/** Starts `script` with node+tsx and waits for a {"port":N} line on its stderr. */
export function startChildServer(
  script: string,
  env: Record<string, string> = {},
  cpu?: number,
): Promise<ChildServer> {
  const [command, args] = nodeCommand([...TSX, script], cpu);
  // taskset execs node in place, so the child's pid is the server's own.
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    // Request logs go to /dev/null: written as in production, but read by nobody on this machine.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 20_000);
    const onLine = (line: string) => {
      if (!line.startsWith('{"port"')) return;
      clearTimeout(timer);
      const { port } = JSON.parse(line) as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        child,
        cpuMicros: () => processCpuMicros(child.pid!),
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / 100) * 1e6;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
}

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));
const CYCLE_PATHS = fileURLToPath(new URL('./cycle-paths.ts', import.meta.url));
const CYCLE_REQUESTS = fileURLToPath(new URL('./cycle-requests.ts', import.meta.url));

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
}

/** Runs `node args…` (on `cpu` when pinned) and parses the autocannon JSON it prints. */
function runAutocannon(args: readonly string[], cpu: number | undefined): Promise<AutocannonJson> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = nodeCommand(args, cpu);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      resolve(JSON.parse(out) as AutocannonJson);
    });
  });
}

const loadResult = (r: AutocannonJson, requestsPerSecond = r.requests.average): LoadResult => ({
  requestsPerSecond,
  p50Ms: r.latency.p50,
  p99Ms: r.latency.p99,
  total: r.requests.total,
  non2xx: r.non2xx,
  errors: r.errors,
});

/**
 * Each request of `requestsFile` (a JSON array of { path, headers }) sent once on `origin`, by
 * `connections` at a time: paid calls, each with its own payment. Rate: requests ÷ elapsed.
 */
export async function autocannonOnce(
  origin: string,
  requestsFile: string,
  connections: number,
  cpu?: number,
): Promise<LoadResult> {
  const r = await runAutocannon([...TSX, CYCLE_REQUESTS, origin, requestsFile, String(connections)], cpu);
  return loadResult(r, r.requests.total / Math.max(r.duration, 0.01));
}

export interface RequestShape {
  readonly method: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Runs autocannon in its own process against `url`, or, given `pathsFile` (a JSON array of
 * paths), against the next of those paths on `url`'s origin for each request.
 */
export function autocannon(
  url: string,
  seconds: number,
  connections = 50,
  request?: RequestShape,
  cpu?: number,
  pathsFile?: string,
): Promise<LoadResult> {
  const shape = request
    ? [
        '-m',
        request.method,
        '-b',
        request.body,
        ...Object.entries(request.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      ]
    : [];
  const args =
    pathsFile === undefined
      ? [AUTOCANNON, '-j', '-c', String(connections), '-d', String(seconds), ...shape, url]
      : [...TSX, CYCLE_PATHS, new URL(url).origin, pathsFile, String(seconds), String(connections)];
  return runAutocannon(args, cpu).then((r) => loadResult(r));
}
