/**
 * `risk-scan evaluate` as a user runs it: on the seeded sandbox (no --rpc) it prints a table per
 * endpoint, writes the same as JSON and exits 0; a list it cannot use ends in one line and exit 2;
 * an RPC that answers no scan ends in one line and exit 1.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GET_ENDPOINTS } from '../../src/catalog.js';
import { assertOneLine, closedPort, riskScan, riskScanHere, tempDir } from './run-cli.js';

const work = tempDir('evaluate-');
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('risk-scan evaluate', { timeout: 180_000 }, () => {
  it('on the seeded sandbox: a table per endpoint, the JSON with every field, exit 0', async () => {
    const out = join(work, 'sandbox.json');
    const ended = await riskScan(
      ['evaluate', '--labels', 'fixtures/labels/sandbox.csv', '--out', out],
      {},
      120_000,
    );
    assert.equal(ended.code, 0, ended.stderr);
    assert.equal(ended.stderr, '');
    assert.match(
      ended.stdout,
      /^Evaluation of fixtures\/labels\/sandbox\.csv against the seeded sandbox \(offline\)$/m,
    );
    for (const e of GET_ENDPOINTS) {
      const section = ended.stdout.split(`\n${e.path}: `)[1]?.split('\n\n')[0];
      assert.ok(section, `${e.path} has its table`);
      assert.match(
        section,
        /high-risk bucket \(avoid \+ do_not_interact\) against bad labels: precision \d\.\d\d/,
      );
      assert.match(
        section,
        /\n {4}label +class +n +min +median +max +proceed +caution +avoid +do_not_interact\n/,
      );
      assert.match(section, /flags that separate bad from good/);
    }
    const json = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(Object.keys(json).sort(), [
      'bad_labels',
      'endpoints',
      'good_labels',
      'high_risk_buckets',
      'labels_file',
      'rpc',
      'subjects',
    ]);
    assert.deepEqual(
      json.endpoints.map((e: { endpoint: string }) => e.endpoint),
      GET_ENDPOINTS.map((e) => e.id),
    );
    for (const e of json.endpoints) {
      assert.deepEqual(Object.keys(e.high_risk).sort(), ['fn', 'fp', 'precision', 'recall', 'tn', 'tp']);
      assert.ok(e.labels.every((l: { distribution: { median: unknown } }) => 'median' in l.distribution));
      assert.ok(Array.isArray(e.separating_flags) && Array.isArray(e.errors));
      assert.equal(e.errors.length, 0, JSON.stringify(e.errors));
    }
    const drainer = json.subjects.find((s: { scenario: string }) => s.scenario === 'tx:drainer');
    assert.equal(drainer.label, 'drainer');
    assert.ok(drainer.risk_score >= 0.8 && drainer.flags.length > 0, JSON.stringify(drainer));
    const token = json.endpoints.find((e: { endpoint: string }) => e.endpoint === 'token');
    assert.equal(
      token.high_risk.recall,
      1,
      'every honeypot and risky seeded token lands in the high-risk bucket',
    );
  });

  // Refused before any scan: run by runCli in this process (see riskScanHere).
  it('a malformed list: one line naming the file and the line, exit 2 (usage)', async () => {
    const file = join(work, 'bad.csv');
    writeFileSync(file, `kind,address,label\ntoken,${USDC},legit\nnft,${USDC},rug\n`);
    assertOneLine(
      await riskScanHere(['evaluate', '--labels', file]),
      2,
      `The labels file ${file} is not a labelled list: line 3: kind "nft" is not an endpoint (one of pumpfun, token, wallet, tx, program).`,
    );
    assertOneLine(await riskScanHere(['evaluate']), 2, /^risk-scan evaluate needs --labels FILE/);
    assertOneLine(
      await riskScanHere(['evaluate', '--labels', join(work, 'missing.csv')]),
      2,
      /^Cannot read the labels file .*missing\.csv: .*ENOENT/,
    );
    assertOneLine(
      await riskScanHere(['evaluate', '--labels', file, '--rpc', 'ftp://x']),
      2,
      /--rpc ftp:\/\/x is not an http\(s\) URL/,
    );
  });

  it('an RPC that answers no scan: one line, exit 1', async () => {
    const file = join(work, 'one.csv');
    writeFileSync(file, `token,${USDC},legit\n`);
    const port = await closedPort();
    assertOneLine(
      await riskScan(['evaluate', '--labels', file, '--rpc', `http://127.0.0.1:${port}`, '--timeout', '5']),
      1,
      new RegExp(
        `^No subject could be scanned through the RPC at 127\\.0\\.0\\.1:${port} \\(the first failed with: .+\\)\\. Check the RPC, or pass --rpc URL\\.$`,
      ),
    );
  });
});
