/**
 * The seeded sandbox chain and its RPC in a worker thread: an RPC node is another machine, so its
 * work (LiteSVM, rendering answers) must not queue behind the scanner's on one event loop, where
 * it would be measured as the scanner's latency.
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import type { ScenarioManifest } from '../../src/sandbox/scenarios/manifest.js';

export interface WorkerSandboxRpc {
  readonly url: string;
  readonly manifest: ScenarioManifest;
  close(): Promise<void>;
}

/** Starts the worker (this module, run under tsx there too) and resolves once its RPC listens. */
export async function startSandboxRpcInWorker(): Promise<WorkerSandboxRpc> {
  const entry = JSON.stringify(import.meta.url);
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`,
    { eval: true },
  );
  const ready = await new Promise<{ url: string; manifest: ScenarioManifest }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the sandbox RPC worker exited (${code}) before it listened`)),
    );
  });
  return {
    ...ready,
    close: async () => {
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const { startSandboxRpc } = await import('../../src/sandbox/rpc/server.js');
  const { seededChain } = await import('../../src/sandbox/scenarios/index.js');
  const { chain, manifest } = await seededChain({ autoAdvance: false });
  const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  port.postMessage({ url: server.url, manifest });
}
