/**
 * `risk-scan act` given a manifest it cannot use ends in one line naming it, exit 2, never a
 * stack trace: a file that is not JSON, and JSON that is no sandbox manifest. The first case runs
 * the command in its own process; the others, refused before anything is sent, through runCli
 * in this one (riskScanHere), since each start of the CLI costs seconds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertOneLine, riskScan, riskScanHere, tempDir } from './run-cli.js';

describe('risk-scan act with a manifest it cannot use', () => {
  const dir = tempDir('act-failure-');
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{subjects', /^Cannot read the sandbox manifest .*: start the sandbox/],
    [
      'JSON without subjects',
      '{}',
      /^.*manifest\.json is not a sandbox manifest \(it names no rpcUrl and subjects\)\.$/,
    ],
    ['null', 'null', /is not a sandbox manifest/],
  ];
  for (const [i, [name, text, line]] of cases.entries()) {
    it(`${name}: exit 2, one line`, async () => {
      const path = join(dir, 'manifest.json');
      writeFileSync(path, text);
      const run = i === 0 ? riskScan : riskScanHere;
      assertOneLine(await run(['act', 'token:authorities-live', 'freeze', '--manifest', path]), 2, line);
    });
  }
});
