import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ConfigError,
  DEFAULT_FACILITATOR_URLS,
  DEFAULT_VERIFIED_TOKENS_URL,
  parseConfig,
} from '../src/config.js';
import {
  DEFAULT_MAX_COMPUTE_UNIT_LIMIT,
  DEFAULT_MAX_COMPUTE_UNIT_PRICE,
} from '../src/x402/payment-transaction.js';

const PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('parseConfig', () => {
  it('with nothing set runs the sandbox on 127.0.0.1:8402', () => {
    const c = parseConfig({});
    assert.equal(c.mode, 'sandbox');
    assert.equal(c.port, 8402);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.payTo, null);
    assert.equal(c.sandbox.rpcPort, 8899);
  });

  it('with PAY_TO serves mainnet on all interfaces with the keyless default facilitators', () => {
    const c = parseConfig({ PAY_TO });
    assert.equal(c.mode, 'mainnet');
    assert.equal(c.host, '0.0.0.0');
    assert.deepEqual(c.facilitatorUrls, DEFAULT_FACILITATOR_URLS);
    assert.equal(c.facilitatorUrls.length, 2);
  });

  it('reads lists, trims trailing slashes, treats empty values as unset and merges RPC URLs', () => {
    const c = parseConfig({
      PAY_TO,
      FACILITATOR_URLS: ' https://a.example/ , https://b.example ',
      SOLANA_RPC_URL: 'https://rpc.example/',
      SOLANA_RPC_URLS: 'https://rpc2.example,https://rpc.example',
      PUBLIC_BASE_URL: '',
      PARALLEL_VERIFY: 'false',
    });
    assert.deepEqual(c.facilitatorUrls, ['https://a.example', 'https://b.example']);
    assert.deepEqual(c.rpcUrls, ['https://rpc.example', 'https://rpc2.example']);
    assert.equal(c.publicBaseUrl, null);
    assert.equal(c.parallelVerify, false);
  });

  it('lists every problem at once, naming the variable and the value', () => {
    assert.throws(
      () =>
        parseConfig({
          PORT: 'eighty',
          PAY_TO: 'not-an-address',
          FACILITATOR_URLS: 'ftp://x',
          LOG_LEVEL: 'loud',
        }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /PORT must be a whole number \(got "eighty"\)/);
        assert.match(
          e.message,
          /PAY_TO must be a base58 Solana address \(32 bytes\) \(got "not-an-address"\)/,
        );
        assert.match(e.message, /FACILITATOR_URLS must be an http\(s\) URL/);
        assert.match(e.message, /LOG_LEVEL/);
        return true;
      },
    );
  });

  it('refuses mainnet mode without PAY_TO, saying what PAY_TO is', () => {
    assert.throws(
      () => parseConfig({ RISK_SCAN_MODE: 'mainnet' }),
      /PAY_TO is required in mainnet mode: the wallet that receives USDC/,
    );
  });

  it('refuses numbers not written in decimal digits, rather than read them as another number', () => {
    for (const port of ['0x1F90', '1e3', '80.0', '-1', '8 402'])
      assert.throws(() => parseConfig({ PORT: port }), /PORT must be a whole number/, port);
    assert.equal(parseConfig({ PORT: ' 8080 ' }).port, 8080);
  });

  it('refuses a HOST that is neither an IP address nor a host name, and takes those that are', () => {
    for (const host of ['not a host!', 'http://x', 'a/b', '-lead'])
      assert.throws(() => parseConfig({ HOST: host }), /HOST must be an IP address or a host name/, host);
    for (const host of ['0.0.0.0', '127.0.0.1', '::', '::1', 'fe80::1', 'localhost', 'api.internal'])
      assert.equal(parseConfig({ HOST: host }).host, host);
  });

  it('refuses published URLs with credentials, a query or a fragment, naming the entry at fault', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { PUBLIC_BASE_URL: 'https://scan.example.com?ref=x' },
        /PUBLIC_BASE_URL must have no query or fragment/,
      ],
      [
        { PUBLIC_BASE_URL: 'https://scan.example.com/#top' },
        /PUBLIC_BASE_URL must have no query or fragment/,
      ],
      [{ PUBLIC_BASE_URL: 'https://me:pw@scan.example.com' }, /PUBLIC_BASE_URL must not carry credentials/],
      [
        { FACILITATOR_URLS: 'https://a.example,https://user:secret@fac.example' },
        /FACILITATOR_URLS must not carry credentials: facilitators are listed in the discovery documents \(entry 2: "https:\/\/\*\*\*@fac.example"\)/,
      ],
      [
        { FACILITATOR_URLS: 'https://a.example,https://b.example?key=1' },
        /FACILITATOR_URLS must have no query/,
      ],
    ];
    for (const [env, message] of cases) {
      assert.throws(() => parseConfig({ PAY_TO, ...env }), message);
      assert.throws(
        () => parseConfig({ PAY_TO, ...env }),
        (e: Error) => !/secret|pw@|ref=x|key=1/.test(e.message),
        'the error does not repeat the credentials or the query',
      );
    }
    // A path is fine (a proxy may serve the API under a prefix), and so is a keyed RPC URL.
    const c = parseConfig({
      PAY_TO,
      PUBLIC_BASE_URL: 'https://example.com/risk/',
      SOLANA_RPC_URL: 'https://rpc.example/?api-key=k',
    });
    assert.equal(c.publicBaseUrl, 'https://example.com/risk');
    assert.deepEqual(c.rpcUrls, ['https://rpc.example/?api-key=k']);
  });

  it('refuses out-of-range numbers', () => {
    assert.throws(() => parseConfig({ PORT: '70000' }), /PORT must be at most 65535/);
    assert.throws(() => parseConfig({ MAX_TIMEOUT_SECONDS: '1' }), /MAX_TIMEOUT_SECONDS must be at least 10/);
  });

  it('takes no batch discount by default, a whole percent up to 90 from BATCH_DISCOUNT_PERCENT, and refuses others', () => {
    assert.equal(parseConfig({}).batchDiscountPercent, 0);
    assert.equal(parseConfig({ BATCH_DISCOUNT_PERCENT: '15' }).batchDiscountPercent, 15);
    assert.throws(
      () => parseConfig({ BATCH_DISCOUNT_PERCENT: '91' }),
      /BATCH_DISCOUNT_PERCENT must be at most 90/,
    );
    assert.throws(() => parseConfig({ BATCH_DISCOUNT_PERCENT: '-1' }), /BATCH_DISCOUNT_PERCENT/);
    assert.throws(() => parseConfig({ BATCH_DISCOUNT_PERCENT: '2.5' }), /BATCH_DISCOUNT_PERCENT/);
  });

  it('bounds a batch’s calls in flight in the sandbox only by default, from BATCH_READS_IN_FLIGHT, and refuses others', () => {
    assert.equal(parseConfig({}).batchReadsInFlight, 8, "the sandbox's RPC answers one call at a time");
    assert.equal(parseConfig({ PAY_TO }).batchReadsInFlight, 0, 'no bound on a provider by default');
    assert.equal(parseConfig({ PAY_TO, BATCH_READS_IN_FLIGHT: '32' }).batchReadsInFlight, 32);
    assert.equal(parseConfig({ BATCH_READS_IN_FLIGHT: '0' }).batchReadsInFlight, 0);
    assert.throws(() => parseConfig({ BATCH_READS_IN_FLIGHT: '-1' }), /BATCH_READS_IN_FLIGHT/);
    assert.throws(() => parseConfig({ BATCH_READS_IN_FLIGHT: 'many' }), /BATCH_READS_IN_FLIGHT/);
  });

  it('caps the compute budget of payments by default, and reads PAYMENT_MAX_COMPUTE_UNIT_PRICE / _LIMIT', () => {
    const c = parseConfig({ PAY_TO });
    assert.equal(c.maxComputeUnitPrice, DEFAULT_MAX_COMPUTE_UNIT_PRICE);
    assert.equal(c.maxComputeUnitLimit, DEFAULT_MAX_COMPUTE_UNIT_LIMIT);
    const set = parseConfig({
      PAY_TO,
      PAYMENT_MAX_COMPUTE_UNIT_PRICE: ' 1000 ',
      PAYMENT_MAX_COMPUTE_UNIT_LIMIT: '60000',
    });
    assert.equal(set.maxComputeUnitPrice, 1000n);
    assert.equal(set.maxComputeUnitLimit, 60_000);
    assert.equal(parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_PRICE: '' }).maxComputeUnitPrice, 50_000n);
  });

  it('refuses compute-budget caps that are not decimal digits or out of range, naming the variable', () => {
    for (const value of ['0x10', '1e3', '100.0', '-1', 'lots'])
      assert.throws(
        () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_PRICE: value }),
        /PAYMENT_MAX_COMPUTE_UNIT_PRICE must be a whole number/,
        value,
      );
    assert.throws(
      () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_LIMIT: '2e5' }),
      /PAYMENT_MAX_COMPUTE_UNIT_LIMIT must be a whole number \(got "2e5"\)/,
    );
    assert.throws(
      () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_PRICE: '0' }),
      /PAYMENT_MAX_COMPUTE_UNIT_PRICE must be at least 1/,
    );
    assert.throws(
      () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_PRICE: '5000001' }),
      /PAYMENT_MAX_COMPUTE_UNIT_PRICE must be at most 5000000/,
    );
    assert.throws(
      () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_LIMIT: '19999' }),
      /PAYMENT_MAX_COMPUTE_UNIT_LIMIT must be at least 20000/,
    );
    assert.throws(
      () => parseConfig({ PAYMENT_MAX_COMPUTE_UNIT_LIMIT: '1400001' }),
      /PAYMENT_MAX_COMPUTE_UNIT_LIMIT must be at most 1400000/,
    );
  });

  it('keeps payment state in .state (mainnet) or the sandbox directory, unless STATE_DIR says where', () => {
    assert.equal(parseConfig({ PAY_TO }).stateDir, '.state');
    assert.equal(parseConfig({}).stateDir, join('.sandbox', 'state'));
    const elsewhere = join(tmpdir(), 'sandbox-elsewhere');
    assert.equal(parseConfig({ SANDBOX_DIR: elsewhere }).stateDir, join(elsewhere, 'state'));
    assert.equal(parseConfig({ PAY_TO, STATE_DIR: join('data', 'scan') }).stateDir, join('data', 'scan'));
    assert.equal(parseConfig({ PAY_TO }).redisUrl, null);
  });

  it("refreshes verified tokens from Jupiter's list on mainnet, none in the sandbox, or VERIFIED_TOKENS_URL", () => {
    assert.equal(parseConfig({ PAY_TO }).verifiedTokens.source, DEFAULT_VERIFIED_TOKENS_URL);
    assert.equal(parseConfig({}).verifiedTokens.source, null);
    assert.equal(parseConfig({ PAY_TO, VERIFIED_TOKENS_URL: 'none' }).verifiedTokens.source, null);
    const file = join('lists', 'verified.json');
    assert.equal(parseConfig({ VERIFIED_TOKENS_URL: file }).verifiedTokens.source, file);
    const own = 'https://lists.example/verified.json';
    assert.equal(parseConfig({ PAY_TO, VERIFIED_TOKENS_URL: own }).verifiedTokens.source, own);
    assert.throws(
      () => parseConfig({ VERIFIED_TOKENS_URL: 'https://' }),
      /VERIFIED_TOKENS_URL must be an http\(s\) URL/,
    );
  });

  it('names the v1 network solana-mainnet by default, solana when X402_V1_NETWORK says so, and refuses others', () => {
    assert.equal(parseConfig({ PAY_TO }).v1Network, 'solana-mainnet');
    assert.equal(parseConfig({}).v1Network, 'solana-mainnet', 'in the sandbox too');
    assert.equal(parseConfig({ PAY_TO, X402_V1_NETWORK: ' solana ' }).v1Network, 'solana');
    assert.equal(parseConfig({ X402_V1_NETWORK: 'solana' }).v1Network, 'solana');
    for (const bad of ['solana-mainnet-beta', 'Solana', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'base']) {
      assert.throws(
        () => parseConfig({ PAY_TO, X402_V1_NETWORK: bad }),
        (e: Error) =>
          e instanceof ConfigError &&
          e.message.includes(
            'X402_V1_NETWORK must be solana-mainnet (the default, as the contract words it) or solana',
          ) &&
          e.message.includes(`(got ${JSON.stringify(bad)})`),
        bad,
      );
    }
  });

  it('takes an optional CONTACT_EMAIL and refuses what is not an email address', () => {
    assert.equal(parseConfig({ PAY_TO }).contactEmail, null);
    assert.equal(
      parseConfig({ PAY_TO, CONTACT_EMAIL: ' ops@scan.example.com ' }).contactEmail,
      'ops@scan.example.com',
    );
    for (const bad of [
      'ops',
      'ops@',
      '@example.com',
      'ops@example',
      'a b@example.com',
      'ops@example.com?cc=x',
    ]) {
      assert.throws(
        () => parseConfig({ PAY_TO, CONTACT_EMAIL: bad }),
        (e: Error) => e instanceof ConfigError && /CONTACT_EMAIL must be an email address/.test(e.message),
        bad,
      );
    }
  });

  it('takes a redis:// or rediss:// REDIS_URL and refuses anything else, masking its password', () => {
    assert.equal(
      parseConfig({ PAY_TO, REDIS_URL: 'redis://10.0.0.5:6379/2' }).redisUrl,
      'redis://10.0.0.5:6379/2',
    );
    assert.equal(
      parseConfig({ PAY_TO, REDIS_URL: 'rediss://u:p@cache:6380' }).redisUrl,
      'rediss://u:p@cache:6380',
    );
    assert.throws(
      () => parseConfig({ PAY_TO, REDIS_URL: 'http://u:secret@cache:6379' }),
      (e: Error) =>
        e instanceof ConfigError &&
        /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/.test(e.message) &&
        !e.message.includes('secret'),
    );
  });

  it('keeps a claim 300 s by default, and refuses a PAYMENT_CLAIM_TTL_SECONDS a paid call could outlast', () => {
    assert.equal(parseConfig({ PAY_TO }).claimTtlMs, 300_000);
    const short = {
      PAY_TO,
      SCAN_TIMEOUT_MS: '2000',
      FACILITATOR_TIMEOUT_MS: '1000',
      SETTLE_TIMEOUT_MS: '3000',
      CONFIRM_WINDOW_MS: '1000',
      RPC_TIMEOUT_MS: '1000',
    };
    // 2 × 2000 + 1000 + 3000 + 1000 + 1000 + 6000 of store commands = 16000 ms
    assert.equal(parseConfig({ ...short, PAYMENT_CLAIM_TTL_SECONDS: '17' }).claimTtlMs, 17_000);
    assert.throws(
      () => parseConfig({ ...short, PAYMENT_CLAIM_TTL_SECONDS: '16' }),
      /PAYMENT_CLAIM_TTL_SECONDS must be longer than the longest paid call: .* = 16000 ms \(got 16 s\)/,
    );
    assert.throws(() => parseConfig({ PAY_TO, PAYMENT_CLAIM_TTL_SECONDS: '60' }), /= 119000 ms/);
  });

  it('has breakers and shedding on by default, and reads their variables (0 turns each off)', () => {
    const c = parseConfig({ PAY_TO });
    assert.deepEqual(c.rpcBreaker, { failures: 5, halfOpenAfterMs: 10_000 });
    assert.deepEqual(c.shedding, { maxInflightPaid: 64, eventLoopDelayMs: 500, retryAfterSeconds: 2 });
    assert.equal(c.longestPaidCallMs, 119_000);
    assert.equal(parseConfig({}).shedding.eventLoopDelayMs, 0, 'the sandbox chain shares the event loop');
    assert.equal(parseConfig({ SHED_EVENT_LOOP_DELAY_MS: '300' }).shedding.eventLoopDelayMs, 300);
    const off = parseConfig({
      PAY_TO,
      RPC_BREAKER_FAILURES: '0',
      RPC_BREAKER_HALF_OPEN_MS: '2500',
      MAX_INFLIGHT_PAID: '0',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_RETRY_AFTER_SECONDS: '7',
    });
    assert.deepEqual(off.rpcBreaker, { failures: 0, halfOpenAfterMs: 2_500 });
    assert.deepEqual(off.shedding, { maxInflightPaid: 0, eventLoopDelayMs: 0, retryAfterSeconds: 7 });
    assert.throws(
      () => parseConfig({ PAY_TO, RPC_BREAKER_HALF_OPEN_MS: '10', SHED_RETRY_AFTER_SECONDS: '0' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /RPC_BREAKER_HALF_OPEN_MS must be at least 100/.test(e.message) &&
        /SHED_RETRY_AFTER_SECONDS must be at least 1/.test(e.message),
    );
  });

  it("states no RPC rate limit by default; reads RPC_RATE_LIMIT and a URL's own `|rps`, refusing bad ones", () => {
    assert.deepEqual(parseConfig({ PAY_TO }).rpcRateLimit, { stated: null, byUrl: {} });
    const c = parseConfig({
      PAY_TO,
      RPC_RATE_LIMIT: '50',
      SOLANA_RPC_URL: 'https://paid.example/?api-key=k|200',
      SOLANA_RPC_URLS: 'https://other.example/,https://paid.example/?api-key=k|10',
    });
    assert.deepEqual(c.rpcUrls, ['https://paid.example/?api-key=k', 'https://other.example']);
    assert.deepEqual(c.rpcRateLimit, { stated: 50, byUrl: { 'https://paid.example/?api-key=k': 200 } });
    assert.equal(c.watch.wsUrl, 'wss://paid.example/?api-key=k', 'the WebSocket URL carries no rate');
    assert.throws(
      () =>
        parseConfig({
          PAY_TO,
          RPC_RATE_LIMIT: '0',
          SOLANA_RPC_URLS: 'https://a.example|50,https://b.example?api-key=secret|fast',
        }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /RPC_RATE_LIMIT must be at least 1/.test(e.message) &&
        /SOLANA_RPC_URLS must be a whole number \(entry 2: "https:\/\/b\.example\?\*\*\*"\)/.test(e.message),
    );
  });

  it("keeps the seeded chain's snapshot in the sandbox directory, or where SANDBOX_SNAPSHOT_DIR says (none: nowhere)", () => {
    assert.equal(parseConfig({}).sandbox.snapshotDir, join('.sandbox', 'snapshots'));
    assert.equal(
      parseConfig({ SANDBOX_DIR: 'elsewhere' }).sandbox.snapshotDir,
      join('elsewhere', 'snapshots'),
    );
    const kept = join(tmpdir(), 'kept');
    assert.equal(parseConfig({ SANDBOX_SNAPSHOT_DIR: kept }).sandbox.snapshotDir, kept);
    assert.equal(parseConfig({ SANDBOX_SNAPSHOT_DIR: 'none' }).sandbox.snapshotDir, null);
  });

  it('answers as an ideal RPC by default, and reads SANDBOX_RPC_PROFILE, refusing unknown profiles', () => {
    assert.equal(parseConfig({}).sandbox.rpcProfile, 'ideal');
    assert.equal(parseConfig({ SANDBOX_RPC_PROFILE: 'public-mainnet' }).sandbox.rpcProfile, 'public-mainnet');
    assert.equal(
      parseConfig({ SANDBOX_RPC_PROFILE: ' indexed-provider ' }).sandbox.rpcProfile,
      'indexed-provider',
    );
    assert.throws(
      () => parseConfig({ SANDBOX_RPC_PROFILE: 'helius' }),
      /SANDBOX_RPC_PROFILE .*\(got "helius"\)/,
    );
  });

  it('derives the WebSocket URL from the first RPC URL, reads SOLANA_WS_URL (or none) and the watch budget', () => {
    const c = parseConfig({});
    assert.equal(c.watch.wsUrl, 'wss://api.mainnet-beta.solana.com');
    assert.deepEqual(
      { interval: c.watch.rescanIntervalMs, budget: c.watch.rescanBudget, debounce: c.watch.debounceMs },
      { interval: 300_000, budget: 50, debounce: 500 },
    );
    assert.equal(
      parseConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:8899/', SOLANA_RPC_URLS: 'https://b.example' }).watch
        .wsUrl,
      'ws://127.0.0.1:8899',
    );
    assert.equal(parseConfig({ SOLANA_WS_URL: 'wss://ws.example/key/' }).watch.wsUrl, 'wss://ws.example/key');
    assert.equal(parseConfig({ SOLANA_WS_URL: 'none' }).watch.wsUrl, null);
    const set = parseConfig({
      WATCH_RESCAN_INTERVAL_SECONDS: '60',
      WATCH_RESCAN_BUDGET: '5',
      WATCH_DEBOUNCE_MS: '0',
    });
    assert.deepEqual(
      [set.watch.rescanIntervalMs, set.watch.rescanBudget, set.watch.debounceMs],
      [60_000, 5, 0],
    );
    assert.throws(
      () => parseConfig({ SOLANA_WS_URL: 'https://ws.example' }),
      /SOLANA_WS_URL must be a ws\(s\) URL or none/,
    );
    assert.throws(() => parseConfig({ WATCH_RESCAN_BUDGET: '0' }), /WATCH_RESCAN_BUDGET must be at least 1/);
  });
});
