/** The stdout log stream batches lines but never loses or reorders them, and never holds them long. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const LOGGER = fileURLToPath(new URL('../../src/server/logger.ts', import.meta.url));

/** Runs `body` in a child process with `log` bound to an info logger on stdout. */
function child(body: string) {
  const script = `import { createLogger, flushLogs, writeRequestLine } from ${JSON.stringify(LOGGER)};\nconst log = createLogger('info');\n${body}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { n?: number; msg: string }[] = [];
  let buffered = '';
  const arrivals: ((line: { n?: number; msg: string }) => void)[] = [];
  // Decoded as a stream: a chunk may end inside a multi-byte character.
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let at = buffered.indexOf('\n');
    while (at !== -1) {
      const line = JSON.parse(buffered.slice(0, at));
      lines.push(line);
      for (const arrived of arrivals) arrived(line);
      buffered = buffered.slice(at + 1);
      at = buffered.indexOf('\n');
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
  /** Resolves when the child writes anything to stderr (its "about to log" signal). */
  const signalled = new Promise<void>((resolve) => proc.stderr.once('data', () => resolve()));
  return {
    proc,
    lines,
    exited,
    signalled,
    onLine: (f: (line: { n?: number; msg: string }) => void) => arrivals.push(f),
  };
}

describe('stdout logs', () => {
  it('every line of a burst arrives, in order, even when the process exits right after it', async () => {
    const run = child(`for (let n = 0; n < 20000; n++) log.info({ n }, 'burst');\nprocess.exit(0);`);
    assert.equal(await run.exited, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(run.lines.length, 20_000);
    assert.deepEqual(
      run.lines.map((l) => l.n),
      Array.from({ length: 20_000 }, (_, n) => n),
    );
  });

  it('lines of any size and script arrive whole and in order, the longest past the batch size', async () => {
    const run = child(
      `for (let n = 0; n < 300; n++) log.info({ n, text: (n % 50 === 7 ? 'é€😀' : 'a').repeat(n % 50 === 7 ? 9000 : n) }, 'mixed');
      process.exit(0);`,
    );
    assert.equal(await run.exited, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(run.lines.length, 300);
    run.lines.forEach((line, n) => {
      const text = (line as unknown as { text: string }).text;
      assert.equal(line.n, n);
      assert.equal(text, n % 50 === 7 ? 'é€😀'.repeat(9000) : 'a'.repeat(n));
    });
  });

  it("request lines, written by hand, keep their place among pino's own lines and read as pino writes them", async () => {
    const run = child(
      `for (let n = 0; n < 3000; n++) {
        if (n % 3 === 0) log.info({ n }, 'burst');
        else writeRequestLine(log, { requestId: 'id-' + n, method: 'GET', route: '/r/:x', path: '/r/"' + n, status: 402, ms: n / 100, extra: {} });
      }
      process.exit(0);`,
    );
    assert.equal(await run.exited, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(run.lines.length, 3000);
    run.lines.forEach((line, n) => {
      if (n % 3 === 0) {
        assert.deepEqual([line.n, line.msg], [n, 'burst']);
        return;
      }
      const { time, ...rest } = line as unknown as Record<string, unknown>;
      assert.equal(typeof time, 'number');
      assert.deepEqual(rest, {
        level: 30,
        service: 'solana-risk-scan',
        req_id: `id-${n}`,
        method: 'GET',
        route: '/r/:x',
        path: `/r/"${n}`,
        status: 402,
        ms: n / 100,
        msg: 'request',
      });
    });
  });

  it('a lone line is written within a second while the process runs on (batched, not held)', async () => {
    const run = child(
      `process.stderr.write('logging\\n');\nlog.info('alone');\nsetTimeout(() => flushLogs(log), 5000);`,
    );
    const line = new Promise<boolean>((resolve) => run.onLine((l) => resolve(l.msg === 'alone')));
    await run.signalled;
    const arrived = await Promise.race([line, new Promise<false>((r) => setTimeout(() => r(false), 1500))]);
    assert.ok(arrived, 'the line arrived long before the process flushed or exited');
    run.proc.kill();
    await run.exited;
  });
});
