/** One structured log line per request; a payment header is never written to the log. */
import assert from 'node:assert/strict';
import { tracingChannel } from 'node:diagnostics_channel';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import bs58 from 'bs58';
import { pino } from 'pino';
import { concretePath, GET_ENDPOINTS, honoPath } from '../../src/catalog.js';
import {
  createLogger,
  isPlainText,
  type Logger,
  type RequestLine,
  writeRequestLine,
} from '../../src/server/logger.js';
import { OFFERS_ONLY } from '../../src/service/index.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from '../helpers/service.js';

describe('request log', () => {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let stub: FacilitatorStub;
  let svc: TestService;
  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService(
      { FACILITATOR_URLS: stub.url },
      { mode: OFFERS_ONLY, log: createLogger('info', sink) },
    );
  });
  after(async () => {
    await svc.close();
    await stub.close();
  });

  it('writes request id, route, status and duration for every request, matching X-Request-Id', async () => {
    lines.length = 0;
    const res = await fetch(`${svc.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
    await res.text();
    await fetch(`${svc.url}/nope`).then((r) => r.text());
    const [paid, missing] = lines.filter((l) => l.msg === 'request');
    assert.equal(paid?.req_id, res.headers.get('x-request-id'));
    assert.equal(paid?.route, '/scan/token/:mint');
    assert.equal(paid?.status, 402);
    assert.equal(typeof paid?.ms, 'number');
    assert.equal(missing?.status, 404);
  });

  it('logs a payment header only as size and digest', async () => {
    lines.length = 0;
    const secret = Buffer.from(
      JSON.stringify({
        x402Version: 1,
        scheme: 'exact',
        network: 'solana',
        payload: { transaction: 'c2VjcmV0LXRyYW5zYWN0aW9u' },
      }),
    ).toString('base64');
    await fetch(`${svc.url}/scan/wallet/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`, {
      headers: { 'X-PAYMENT': secret },
    }).then((r) => r.text());
    const text = JSON.stringify(lines);
    assert.ok(!text.includes(secret), 'the header is not in the log');
    assert.ok(!text.includes('c2VjcmV0LXRyYW5zYWN0aW9u'), 'nor the transaction');
    const line = lines.find((l) => l.msg === 'request');
    assert.equal(line?.payment.bytes, secret.length);
    assert.match(line?.payment.sha256, /^[0-9a-f]{16}$/);
  });
});

describe('the request line', () => {
  function capture(level: string) {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    return { log: createLogger(level, sink), written };
  }

  /** The line writeRequestLine writes and the one pino writes for the same fields, parsed. */
  async function bothLines(extra: Record<string, unknown>) {
    const mine = capture('info');
    const pinos = capture('info');
    const fields = {
      requestId: '8316720c-dd1b-42c8-9bf3-f7a134e18a71',
      method: 'GET',
      route: null,
      path: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      status: 402,
      ms: 0.07,
      extra,
    };
    writeRequestLine(mine.log, fields);
    pinos.log.info(
      {
        req_id: fields.requestId,
        method: fields.method,
        route: fields.route,
        path: fields.path,
        status: fields.status,
        ms: fields.ms,
        ...extra,
      },
      'request',
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(mine.written.length, 1);
    assert.ok(mine.written[0]!.endsWith('\n'), 'one whole line');
    const a = JSON.parse(mine.written[0]!);
    const b = JSON.parse(pinos.written[0]!);
    // Both are epoch milliseconds, ours taken first; how far apart depends on the machine's load.
    assert.ok(Number.isInteger(a.time) && a.time <= b.time, `time ${a.time} then pino's ${b.time}`);
    a.time = b.time;
    return [a, b] as const;
  }

  it('is the line pino writes for the same fields, key for key and in the same order', async () => {
    const [mine, pinos] = await bothLines({});
    assert.deepEqual(Object.keys(mine), Object.keys(pinos));
    assert.deepEqual(mine, pinos);
  });

  it('with extra fields, still one valid line: undefined left out, bigints and escapes kept', async () => {
    const extra = {
      payment: { bytes: 1234, sha256: 'abcdef0123456789' },
      payment_key: 'k"ey\\',
      outcome: undefined,
      lamports: 12345678901234567890n,
    };
    const [mine, pinos] = await bothLines(extra);
    assert.deepEqual(Object.keys(mine), Object.keys(pinos));
    assert.deepEqual(mine, pinos);
    assert.equal('outcome' in mine, false);
    assert.deepEqual(mine.payment, extra.payment);
    assert.equal(mine.payment_key, extra.payment_key);
  });

  it('is not written below the logger level', async () => {
    for (const level of ['warn', 'silent']) {
      const quiet = capture(level);
      writeRequestLine(quiet.log, {
        requestId: 'x',
        method: 'GET',
        route: '/',
        path: '/',
        status: 200,
        ms: 1,
        extra: {},
      });
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(quiet.written, [], level);
    }
  });
});

describe('the request line of a logger configured beyond createLogger', () => {
  const FIELDS: RequestLine = {
    requestId: '8316720c-dd1b-42c8-9bf3-f7a134e18a71',
    method: 'GET',
    route: '/scan/token/:mint',
    path: '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    status: 402,
    ms: 0.07,
    extra: {},
  };

  function sinkInto(written: string[]) {
    return new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
  }

  /** The call pino would be given for the request line's fields. */
  function pinoWrites(log: Logger, fields: RequestLine): void {
    const { requestId, method, route, path, status, ms } = fields;
    log.info({ req_id: requestId, method, route, path, status, ms, ...fields.extra }, 'request');
  }

  /** Two writes are a few milliseconds apart (the custom timestamps below are fixed). */
  const sameTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

  /**
   * Writes the request line with writeRequestLine on one logger made by `make` and with pino
   * on another, each to its own sink; asserts the bytes are the same and returns pino's line.
   */
  async function compare(make: (destination: Writable) => Logger): Promise<string> {
    const mine: string[] = [];
    const theirs: string[] = [];
    writeRequestLine(make(sinkInto(mine)), FIELDS);
    pinoWrites(make(sinkInto(theirs)), FIELDS);
    await new Promise((r) => setImmediate(r));
    assert.equal(theirs.length, 1);
    assert.deepEqual(mine.map(sameTime), theirs.map(sameTime));
    return theirs[0]!;
  }

  /** pino's line with createLogger's own options, which every configured line must differ from. */
  async function plainLine(): Promise<string> {
    const written: string[] = [];
    pinoWrites(createLogger('info', sinkInto(written)), FIELDS);
    await new Promise((r) => setImmediate(r));
    return sameTime(written[0]!);
  }

  it("on createLogger's own logger, is written by hand, byte for byte pino's line", async () => {
    const written: string[] = [];
    const log = createLogger('info', sinkInto(written));
    let calls = 0;
    const info = log.info as (...args: unknown[]) => void;
    log.info = function (this: Logger, ...args: unknown[]) {
      calls++;
      info.apply(this, args);
    } as Logger['info'];
    writeRequestLine(log, FIELDS);
    assert.equal(calls, 0, 'not through pino');
    // A child inherits the spy, and goes through pino.
    writeRequestLine(log.child({}), FIELDS);
    assert.equal(calls, 1);
    // A path that needs escaping goes through pino too (see the next test).
    writeRequestLine(log, { ...FIELDS, path: '/scan/token/"quoted"\\ and ünïcode' });
    assert.equal(calls, 2);
    assert.equal(written.length, 3);
    assert.equal(sameTime(written[0]!), await plainLine());
    assert.equal(sameTime(written[1]!), await plainLine());
  });

  it('quotes every path and route as pino does: plain ones by hand, the rest as JSON escapes them', async () => {
    const awkward = [
      '/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      '/a"b',
      '/a\\b',
      '/tab\there',
      '/nl\n',
      '/nul\u0000',
      '/del\u007f',
      '/é',
      '/😀',
      '/lone\ud800',
      "/~ !#$%&'()*+,-./:;<=>?@[]^_`{|}",
      '',
    ];
    for (const [i, path] of awkward.entries()) {
      const fields = { ...FIELDS, path, route: i % 3 === 0 ? null : path };
      const mine: string[] = [];
      const theirs: string[] = [];
      writeRequestLine(createLogger('info', sinkInto(mine)), fields);
      pinoWrites(createLogger('info', sinkInto(theirs)), fields);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(mine.map(sameTime), theirs.map(sameTime), JSON.stringify(path));
    }
  });

  it("the unpaid lane's paths, which it does not test before writing by hand, are pino's lines", async () => {
    // The lane tells the writer its route and path are plain text (RequestLine.plainText): every
    // path it can answer is a GET endpoint's with the longest admitted parameter or a template.
    for (const endpoint of GET_ENDPOINTS) {
      const longest = bs58.encode(new Uint8Array(endpoint.param.kind === 'address' ? 32 : 64).fill(255));
      const { name } = endpoint.param;
      for (const value of [longest, `{${name}}`, `:${name}`]) {
        const fields = { ...FIELDS, route: honoPath(endpoint.path), path: concretePath(endpoint, value) };
        const mine: string[] = [];
        const theirs: string[] = [];
        writeRequestLine(createLogger('info', sinkInto(mine)), { ...fields, plainText: true });
        pinoWrites(createLogger('info', sinkInto(theirs)), fields);
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(mine.map(sameTime), theirs.map(sameTime), fields.path);
        assert.ok(isPlainText(fields.path) && isPlainText(fields.route), fields.path);
      }
    }
  });

  it("on createLogger's own logger given other bindings later, is still pino's line", async () => {
    const line = await compare((destination) => {
      const log = createLogger('info', destination);
      log.setBindings({ region: 'eu' });
      return log;
    });
    assert.match(line, /"service":"solana-risk-scan","region":"eu","req_id"/);
  });

  const CONFIGURED: readonly (readonly [string, pino.LoggerOptions])[] = [
    ['redaction', { redact: ['path', 'req_id'] }],
    ['redaction that removes the key', { redact: { paths: ['route'], remove: true } }],
    ['a log formatter', { formatters: { log: (obj) => ({ ...obj, path: '[elided]' }) } }],
    ['a level formatter', { formatters: { level: (label) => ({ level: label }) } }],
    ['a bindings formatter', { formatters: { bindings: (bindings) => ({ ...bindings, region: 'eu' }) } }],
    [
      'serializers',
      { serializers: { path: (p: string) => p.length, req_id: (id: string) => id.slice(0, 8) } },
    ],
    ['a serializer of a base field', { serializers: { service: (s: string) => s.toUpperCase() } }],
    ['a mixin', { mixin: () => ({ region: 'eu' }) }],
    ['a message key', { messageKey: 'message' }],
    ['a nested key', { nestedKey: 'request' }],
    ['a custom timestamp', { timestamp: () => ',"time":"2025-01-01T00:00:00.000Z"' }],
    ['no timestamp', { timestamp: false }],
    ['custom levels (info at 35)', { customLevels: { info: 35 }, useOnlyCustomLevels: true }],
    ['more base fields', { base: { service: 'solana-risk-scan', region: 'eu' } }],
    ['no base fields', { base: null }],
    ['a name', { name: 'scan' }],
    ['a message prefix', { msgPrefix: 'http: ' }],
    ['CRLF line ends', { crlf: true }],
    ['a stream-write hook', { hooks: { streamWrite: (s) => s.replace('"msg"', '"message"') } }],
    [
      'a log-method hook',
      {
        hooks: {
          logMethod(args, method) {
            method.apply(this, [{ ...(args[0] as object), hooked: true }, ...args.slice(1)] as never);
          },
        },
      },
    ],
  ];

  for (const [name, options] of CONFIGURED) {
    it(`with ${name}, is the line pino writes, byte for byte`, async () => {
      const line = await compare((destination) =>
        pino({ level: 'info', base: { service: 'solana-risk-scan' }, ...options }, destination),
      );
      assert.notEqual(sameTime(line), await plainLine(), 'the option changes the line');
    });
  }

  const CHILDREN: readonly (readonly [string, (log: Logger) => Logger])[] = [
    ['bindings', (log) => log.child({ region: 'eu' })],
    ['redaction', (log) => log.child({}, { redact: ['path'] })],
    ['serializers', (log) => log.child({}, { serializers: { path: (p: string) => p.length } })],
    ['a log formatter', (log) => log.child({}, { formatters: { log: (obj) => ({ ...obj, extra: 1 }) } })],
    ['a message prefix', (log) => log.child({}, { msgPrefix: 'http: ' })],
  ];

  for (const [name, derive] of CHILDREN) {
    it(`from a child of createLogger's logger with ${name}, is the line pino writes`, async () => {
      const line = await compare((destination) => derive(createLogger('info', destination)));
      assert.notEqual(sameTime(line), await plainLine(), 'the child changes the line');
    });
  }

  it("to a destination that needs pino's metadata (multistream), is the line pino writes", async () => {
    await compare((destination) =>
      createLogger('info', pino.multistream([{ level: 'info', stream: destination }])),
    );
  });

  it("is seen by subscribers of pino's serialisation channel, as pino's own lines are", async () => {
    const channel = tracingChannel('pino_asJson');
    let seen = 0;
    const handlers = {
      start: () => {
        seen++;
      },
    };
    channel.subscribe(handlers as never);
    try {
      await compare((destination) => createLogger('info', destination));
    } finally {
      channel.unsubscribe(handlers as never);
    }
    assert.equal(seen, 2, 'one start per line, the request line included');
  });
});

describe('a log destination that fails', () => {
  it('costs no request its answer (the unpaid lane and the Hono routes alike)', async () => {
    const broken = {
      write(): boolean {
        throw new Error('disk full');
      },
    };
    const stub = await startFacilitatorStub(TEST_FEE_PAYER);
    const svc = await startTestService(
      { FACILITATOR_URLS: stub.url },
      { mode: OFFERS_ONLY, log: createLogger('info', broken) },
    );
    try {
      const offer = await fetch(`${svc.url}/scan/token/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`);
      assert.equal(offer.status, 402);
      assert.equal(((await offer.json()) as { x402Version: number }).x402Version, 1);
      const missing = await fetch(`${svc.url}/nope`);
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { error: string }).error, 'not_found');
      const health = await fetch(`${svc.url}/health`);
      assert.equal(health.status, 200);
    } finally {
      await svc.close();
      await stub.close();
    }
  });
});
