/**
 * `risk-scan <command> --help` (and -h) prints that command's usage on stdout and exits 0, for
 * every command of the CLI's own table: a command added without a usage fails here.
 *
 * What each command prints is decided in `runCli`, before any command runs, so every command and
 * flag is checked there, in this process; spawning the CLI costs seconds of start-up each, so
 * the command as a user runs it (`main`: the exit code, stdout and stderr) is checked once per flag.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { COMMANDS, runCli } from '../../src/cli/index.js';
import { riskScan } from './run-cli.js';

const names = Object.keys(COMMANDS);

/** Fails unless `stdout` is `name`'s usage, and only its own. */
function assertUsageOf(name: string, stdout: string): void {
  assert.match(stdout, new RegExp(`^Usage:\\n {2}risk-scan ${name} `));
  for (const other of names.filter((n) => n !== name))
    assert.doesNotMatch(stdout, new RegExp(`^ {2}risk-scan ${other} `, 'm'), 'only its own usage');
}

/** `runCli(argv)` in this process: its exit code and what it wrote with console.log and console.error. */
async function runHere(t: TestContext, argv: string[]) {
  const log = t.mock.method(console, 'log', () => {});
  const error = t.mock.method(console, 'error', () => {});
  const code = await runCli(argv, {});
  const written = (calls: { arguments: unknown[] }[]) =>
    calls.map((c) => `${c.arguments.join(' ')}\n`).join('');
  const ended = { code, stdout: written(log.mock.calls), stderr: written(error.mock.calls) };
  log.mock.restore();
  error.mock.restore();
  return ended;
}

describe('risk-scan <command> --help', () => {
  it('covers every command the CLI dispatches', () => {
    assert.deepEqual([...names].sort(), ['act', 'call', 'evaluate', 'mcp', 'sandbox', 'serve']);
  });

  for (const name of names) {
    for (const flag of ['--help', '-h']) {
      it(`${name} ${flag} prints its usage and exits 0`, async (t) => {
        const ended = await runHere(t, [name, flag]);
        assert.equal(ended.code, 0, ended.stderr);
        assertUsageOf(name, ended.stdout);
        assert.equal(ended.stderr, '');
      });
    }
  }

  for (const [name, flag] of [
    ['call', '--help'],
    ['sandbox', '-h'],
  ] as const) {
    it(`the command itself: risk-scan ${name} ${flag} prints the usage on stdout, nothing on stderr, exit 0`, async () => {
      const ended = await riskScan([name, flag]);
      assert.equal(ended.code, 0, ended.stderr);
      assertUsageOf(name, ended.stdout);
      assert.equal(ended.stderr, '');
    });
  }

  it('--help after other options still prints the usage, without running the command', async (t) => {
    const ended = await runHere(t, ['call', '/scan/wallet/x', '--api', 'http://127.0.0.1:1', '--help']);
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stdout, /^Usage:\n {2}risk-scan call /);
  });
});
