/**
 * `risk-scan evaluate --labels FILE [--rpc URL] [--out FILE.json] [--timeout SECONDS]`: runs
 * the scanners directly (operator mode: no payment, no cache) over a labelled list and prints,
 * per endpoint, how well the high-risk bucket matches the labels. Without --rpc it seeds the
 * sandbox chain in this process and reads it through the sandbox RPC, so it runs offline.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { WordedFailure } from '../client/failures.js';
import { type LabelledSubject, LabelsError, parseLabels } from '../evaluate/labels.js';
import { evaluateScores } from '../evaluate/metrics.js';
import { reportJson, reportText } from '../evaluate/report.js';
import { scoreSubjects } from '../evaluate/run.js';
import { createSandboxChain } from '../sandbox/chain/chain.js';
import { startSandboxRpc } from '../sandbox/rpc/server.js';
import { seedScenarios } from '../sandbox/scenarios/index.js';
import { SCANNERS } from '../scans/registry.js';
import { createRpc } from '../solana/rpc.js';
import { EXIT, evaluateFailures } from './failures.js';

export const EVALUATE_USAGE = `  risk-scan evaluate --labels FILE [--rpc URL] [--out FILE.json] [--timeout SECONDS]
                                          scan every subject of a labelled CSV (kind,address,label[,note])
                                          without payment and print precision and recall of the
                                          high-risk bucket per endpoint (default: the offline sandbox;
                                          --timeout 30, for each scan)`;

interface Endpoint {
  readonly url: string;
  /** How the report names it. */
  readonly name: string;
  close(): Promise<void>;
}

/** The seeded sandbox chain behind its JSON-RPC server, on a free port of this machine. */
async function startSandboxEndpoint(): Promise<Endpoint> {
  const chain = await createSandboxChain({ autoAdvance: false });
  try {
    await seedScenarios(chain);
    const server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    return {
      url: server.url,
      name: 'the seeded sandbox (offline)',
      close: async () => {
        chain.stop();
        await server.close();
      },
    };
  } catch (e) {
    chain.stop();
    throw e;
  }
}

async function readLabels(file: string): Promise<LabelledSubject[]> {
  const text = await readFile(file, 'utf8').catch((e: unknown) => {
    throw evaluateFailures.unreadableLabels(file, e);
  });
  try {
    return parseLabels(text);
  } catch (e) {
    if (e instanceof LabelsError) throw evaluateFailures.malformedLabels(file, e.message);
    throw e;
  }
}

function rpcEndpoint(url: string): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw evaluateFailures.badRpc(url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw evaluateFailures.badRpc(url);
  // The report names the host only: a provider's API key often sits in the path or query.
  return { url, name: `the RPC at ${parsed.host}`, close: async () => {} };
}

export async function evaluate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      labels: { type: 'string' },
      rpc: { type: 'string' },
      out: { type: 'string' },
      timeout: { type: 'string', default: '30' },
    },
  });
  if (values.labels === undefined) throw evaluateFailures.noLabels();
  const timeoutS = Number(values.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new WordedFailure('--timeout must be a number of seconds above 0', 'usage');
  const given = values.rpc === undefined ? null : rpcEndpoint(values.rpc);
  const subjects = await readLabels(values.labels);
  const endpoint = given ?? (await startSandboxEndpoint());
  try {
    const scored = await scoreSubjects(subjects, {
      scanners: SCANNERS,
      rpc: createRpc({ urls: [endpoint.url], timeoutMs: Math.min(8_000, timeoutS * 1000) }),
      timeoutMs: timeoutS * 1000,
    });
    const firstError = scored.find((s) => !s.outcome.ok)?.outcome;
    if (firstError && !firstError.ok && scored.every((s) => !s.outcome.ok))
      throw evaluateFailures.nothingScanned(endpoint.name, firstError.error);
    const reports = evaluateScores(scored);
    const source = { labels: values.labels, rpc: endpoint.name };
    console.log(reportText(reports, source));
    if (values.out !== undefined) {
      const json = `${JSON.stringify(reportJson(reports, scored, source), null, 2)}\n`;
      await writeFile(values.out, json).catch((e: unknown) => {
        throw evaluateFailures.cannotWrite(values.out!, e);
      });
      console.log(`\nJSON written to ${values.out}`);
    }
    return EXIT.ok;
  } finally {
    await endpoint.close();
  }
}
