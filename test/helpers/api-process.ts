/**
 * The API as its own process (`npm start` in mainnet mode), so a test can kill it with SIGKILL
 * and start it again: against a sandbox chain and facilitators that keep running meanwhile.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ApiProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** SIGKILL: no shutdown of any kind; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as a deploy stops it; resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Starts `src/main.ts` with `env` (plus PORT 0 and info logs) and waits until it listens. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // A busy test machine must not shed the calls a test makes; shedding has tests of its own.
      SHED_EVENT_LOOP_DELAY_MS: '0',
      // The bundled verified tokens: no test reaches Jupiter's list.
      VERIFIED_TOKENS_URL: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const entry = parseLine(line);
      if (entry?.msg === 'Solana Risk Scan is listening' && typeof entry.url === 'string') {
        // From here on its logs are drained unread: parsing each line would load the test under load runs.
        lines.close();
        child.stdout!.resume();
        resolve(entry.url);
      }
    });
    void exited.then(([code]) => reject(new Error(`the API exited (${code}) before listening: ${stderr}`)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url, child, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
