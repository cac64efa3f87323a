import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import {
  checkWebhook,
  nonPublicKind,
  pinnedLookup,
  type ResolvedAddress,
  type ResolveHost,
} from '../../src/watch/webhook-url.js';

/** A resolver that answers from a table, as DNS would; a name not in it does not resolve. */
function resolverOf(table: Record<string, readonly string[]>): ResolveHost & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<readonly ResolvedAddress[]> => {
    asked.push(host);
    const answers = table[host];
    if (answers === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const PUBLIC = resolverOf({
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'v6-private.example.com': ['2606:2800:220:1::1', 'fd12:3456::1'],
  'metadata.example.com': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
  'empty.example.com': [],
});

async function refusal(url: string, mode: 'mainnet' | 'sandbox' = 'mainnet'): Promise<string> {
  const checked = await checkWebhook(url, { mode, resolve: PUBLIC });
  assert.equal(checked.ok, false, `${url} should be refused in ${mode} mode`);
  return checked.ok ? '' : checked.reason;
}

describe('webhook URL guard, mainnet mode', () => {
  it('takes an https URL whose host resolves to public addresses only, and gives them back', async () => {
    const checked = await checkWebhook('https://hooks.example.com/alerts?x=1', {
      mode: 'mainnet',
      resolve: PUBLIC,
    });
    assert.equal(checked.ok, true);
    assert.ok(checked.ok);
    assert.deepEqual(
      checked.addresses.map((a) => a.address),
      ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    );
    assert.equal(checked.url.pathname, '/alerts');
  });

  it('refuses http://', async () => {
    assert.match(await refusal('http://hooks.example.com/alerts'), /must use https/);
  });

  it('refuses other schemes and what is not a URL', async () => {
    assert.match(await refusal('ftp://hooks.example.com/'), /must use https/);
    assert.match(await refusal('file:///etc/passwd'), /must use https/);
    assert.match(await refusal('not a url'), /not a valid URL/);
  });

  it('refuses credentials in the URL', async () => {
    assert.match(await refusal('https://user:secret@hooks.example.com/'), /credentials/);
    assert.match(await refusal('https://token@hooks.example.com/'), /credentials/);
  });

  it('refuses loopback, in every spelling of it', async () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://127.8.9.10/',
      'https://localhost/',
      'https://[::1]/',
      'https://2130706433/', // decimal
      'https://0177.0.0.1/', // octal
      'https://0x7f.0.0.1/', // hex
      'https://0x7f000001/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/', // IPv4-mapped
      'https://[::ffff:7f00:1]/',
    ]) {
      assert.match(await refusal(url), /loopback/, url);
    }
  });

  it('refuses 10.x and the other private ranges', async () => {
    for (const url of [
      'https://10.0.0.1/',
      'https://172.16.0.1/',
      'https://172.31.255.255/',
      'https://192.168.1.1/',
      'https://[fc00::1]/',
      'https://[fd12:3456::1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://012.0.0.1/', // octal 10.0.0.1
    ]) {
      assert.match(await refusal(url), /private/, url);
    }
  });

  it('refuses 169.254.169.254 and the IPv6 metadata address', async () => {
    assert.match(await refusal('https://169.254.169.254/latest/meta-data/'), /metadata/);
    assert.match(await refusal('https://2852039166/'), /metadata/); // 169.254.169.254 in decimal
    assert.match(await refusal('https://[fd00:ec2::254]/'), /metadata/);
    assert.match(await refusal('https://metadata.example.com/'), /resolves to 169\.254\.169\.254.*metadata/);
  });

  it('refuses a hostname that resolves to a private address', async () => {
    assert.match(
      await refusal('https://internal.example.com/hook'),
      /internal\.example\.com resolves to 10\.1\.2\.3, a private/,
    );
  });

  it('refuses a host when any one of its addresses is not public (A or AAAA)', async () => {
    assert.match(await refusal('https://mixed.example.com/'), /192\.168\.1\.10/);
    assert.match(await refusal('https://v6-private.example.com/'), /fd12:3456::1/);
  });

  it('refuses link-local, shared, unspecified, multicast and reserved addresses', async () => {
    const cases: [string, RegExp][] = [
      ['https://169.254.10.1/', /link-local/],
      ['https://[fe80::1]/', /link-local/],
      ['https://100.64.0.1/', /shared/],
      ['https://0.0.0.0/', /unspecified/],
      ['https://0/', /unspecified/],
      ['https://[::]/', /unspecified/],
      ['https://224.0.0.1/', /multicast/],
      ['https://[ff02::1]/', /multicast/],
      ['https://240.0.0.1/', /reserved/],
      ['https://255.255.255.255/', /reserved/],
      ['https://192.0.2.1/', /reserved/],
      ['https://198.18.0.1/', /reserved/],
      ['https://[2001:db8::1]/', /reserved/],
      ['https://[2002:7f00:1::1]/', /reserved/], // 6to4 carrying 127.0.0.1
      ['https://[::127.0.0.1]/', /not a global unicast/], // IPv4-compatible
      ['https://[64:ff9b::a00:1]/', /not a global unicast/], // NAT64 of 10.0.0.1
    ];
    for (const [url, reason] of cases) assert.match(await refusal(url), reason, url);
  });

  it('refuses a host that does not resolve, or resolves to nothing', async () => {
    assert.match(await refusal('https://nowhere.example.com/'), /does not resolve/);
    assert.match(await refusal('https://empty.example.com/'), /does not resolve/);
  });

  it('takes public IP literals without asking DNS', async () => {
    const resolve = resolverOf({});
    for (const url of ['https://93.184.216.34/', 'https://[2606:2800:220:1::1]/']) {
      const checked = await checkWebhook(url, { mode: 'mainnet', resolve });
      assert.equal(checked.ok, true, url);
    }
    assert.deepEqual(resolve.asked, []);
  });
});

describe('webhook URL guard, sandbox mode', () => {
  it('allows http and loopback', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost:9/',
      'http://[::1]:9/',
      'https://127.0.0.1/',
    ]) {
      const checked = await checkWebhook(url, { mode: 'sandbox', resolve: PUBLIC });
      assert.equal(checked.ok, true, url);
    }
  });

  it('still refuses metadata and private addresses, and credentials', async () => {
    assert.match(await refusal('http://169.254.169.254/', 'sandbox'), /metadata/);
    assert.match(await refusal('http://10.0.0.1/', 'sandbox'), /private/);
    assert.match(await refusal('http://a:b@127.0.0.1/', 'sandbox'), /credentials/);
    assert.match(await refusal('ftp://127.0.0.1/', 'sandbox'), /http or https/);
  });
});

describe('nonPublicKind', () => {
  it('names what an address is, and null for a public one', () => {
    assert.equal(nonPublicKind('8.8.8.8', 'mainnet'), null);
    assert.equal(nonPublicKind('2001:4860:4860::8888', 'mainnet'), null);
    assert.equal(nonPublicKind('127.0.0.1', 'mainnet'), 'a loopback address');
    assert.equal(nonPublicKind('127.0.0.1', 'sandbox'), null);
    assert.equal(nonPublicKind('::ffff:169.254.169.254', 'mainnet'), 'a cloud metadata address');
    assert.equal(nonPublicKind('example.com', 'mainnet'), 'not an IP address');
  });
});

describe('pinnedLookup', () => {
  it('connects to the checked address whatever the name would resolve to now', async () => {
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // The name does not exist in DNS: only the pinned address can make this request land.
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          `http://rebinding.invalid:${port}/`,
          { lookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]) },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(body, 'pinned');
    } finally {
      server.close();
    }
  });

  it('answers only addresses of the family asked for, and fails when there is none', () => {
    const lookup = pinnedLookup([{ address: '93.184.216.34', family: 4 }]);
    lookup('x', { family: 6 }, (error) => assert.equal((error as NodeJS.ErrnoException).code, 'ENOTFOUND'));
    lookup('x', { all: true }, (error, all) => {
      assert.equal(error, null);
      assert.deepEqual(all, [{ address: '93.184.216.34', family: 4 }]);
    });
  });
});
