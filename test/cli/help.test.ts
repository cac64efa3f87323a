/**
 * `risk-scan <command> --help` (and -h) prints that command's usage on stdout and exits 0, for
 * every command of the CLI's own table: a command added without a usage fails here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/index.js';
import { riskScan } from './run-cli.js';

describe('risk-scan <command> --help', () => {
  const names = Object.keys(COMMANDS);

  it('covers every command the CLI dispatches', () => {
    assert.deepEqual([...names].sort(), ['act', 'call', 'evaluate', 'mcp', 'sandbox', 'serve']);
  });

  for (const name of names) {
    for (const flag of ['--help', '-h']) {
      it(`${name} ${flag} prints its usage and exits 0`, async () => {
        const ended = await riskScan([name, flag]);
        assert.equal(ended.code, 0, ended.stderr);
        assert.match(ended.stdout, new RegExp(`^Usage:\\n {2}risk-scan ${name} `));
        for (const other of names.filter((n) => n !== name))
          assert.doesNotMatch(
            ended.stdout,
            new RegExp(`^ {2}risk-scan ${other} `, 'm'),
            'only its own usage',
          );
        assert.equal(ended.stderr, '');
      });
    }
  }

  it('--help after other options still prints the usage, without running the command', async () => {
    const ended = await riskScan(['call', '/scan/wallet/x', '--api', 'http://127.0.0.1:1', '--help']);
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stdout, /^Usage:\n {2}risk-scan call /);
  });
});
