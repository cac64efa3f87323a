/**
 * Whether a watch's webhook may be contacted: the guard against server-side request forgery. In
 * mainnet mode a webhook is `https`, carries no credentials, and every address its host resolves
 * to is public; the sandbox also allows `http` and loopback (a webhook on the user's machine).
 * The addresses checked are given back so the delivery connects to exactly one of them (see
 * `pinnedLookup`): a host that resolves to a public address at the check and to a private one
 * at the connection (DNS rebinding) never gets that second answer used. Check again at every
 * delivery.
 */
import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

export type WebhookMode = 'mainnet' | 'sandbox';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address (A and AAAA) a host name resolves to; injected so tests do not use real DNS. */
export type ResolveHost = (host: string) => Promise<readonly ResolvedAddress[]>;

export interface CheckedWebhook {
  readonly ok: true;
  readonly url: URL;
  /** The addresses checked: a delivery connects to one of these and no other. */
  readonly addresses: readonly ResolvedAddress[];
}

export interface RefusedWebhook {
  readonly ok: false;
  /** Why, in words for the payer: "webhook must use https", "… resolves to 10.0.0.1, a private address". */
  readonly reason: string;
}

export interface WebhookCheckOptions {
  readonly mode: WebhookMode;
  readonly resolve?: ResolveHost | undefined;
}

/** The system resolver (getaddrinfo, as an HTTP client would use), every address of both families. */
export const systemResolver: ResolveHost = async (host) => {
  const answers = await systemLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function blockList(v4: readonly string[], v6: readonly string[]): BlockList {
  const list = new BlockList();
  for (const subnet of v4) {
    const [net, prefix] = subnet.split('/');
    list.addSubnet(net as string, Number(prefix), 'ipv4');
  }
  for (const subnet of v6) {
    const [net, prefix] = subnet.split('/');
    list.addSubnet(net as string, Number(prefix), 'ipv6');
  }
  return list;
}

// BlockList matches an IPv4-mapped IPv6 address (::ffff:a.b.c.d) against the IPv4 rules too.
const LOOPBACK = blockList(['127.0.0.0/8'], ['::1/128']);

/** Non-public ranges by what they are (IANA special-purpose registries), checked in this order. */
const NON_PUBLIC: readonly (readonly [string, BlockList])[] = [
  ['a loopback address', LOOPBACK],
  ['an unspecified address', blockList(['0.0.0.0/8'], ['::/128'])],
  ['a cloud metadata address', blockList(['169.254.169.254/32'], ['fd00:ec2::254/128'])],
  ['a private address', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ['fc00::/7'])],
  ['a shared (carrier-grade NAT) address', blockList(['100.64.0.0/10'], [])],
  ['a link-local address', blockList(['169.254.0.0/16'], ['fe80::/10'])],
  ['a multicast address', blockList(['224.0.0.0/4'], ['ff00::/8'])],
  [
    'a reserved address',
    blockList(
      [
        '192.0.0.0/24',
        '192.0.2.0/24',
        '192.88.99.0/24',
        '198.18.0.0/15',
        '198.51.100.0/24',
        '203.0.113.0/24',
        '240.0.0.0/4',
      ],
      // Teredo and IETF assignments, documentation, 6to4 (it embeds an IPv4 address we would
      // have to check through), and the site-local range fec0::/10.
      ['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20', 'fec0::/10'],
    ),
  ],
];

// Public IPv6 is global unicast only: this also refuses the IPv4-mapped (::ffff:0:0/96),
// -compatible (::/96) and NAT64 (64:ff9b::/96) forms, whatever IPv4 address they carry.
const GLOBAL_UNICAST_V6 = blockList([], ['2000::/3']);

/** Null when `address` may be contacted in `mode`, else what it is ("a private address"). */
export function nonPublicKind(address: string, mode: WebhookMode): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (mode === 'sandbox' && LOOPBACK.check(address, type)) return null;
  for (const [kind, list] of NON_PUBLIC) if (list.check(address, type)) return kind;
  if (family === 6 && !GLOBAL_UNICAST_V6.check(address, 'ipv6')) return 'not a global unicast address';
  return null;
}

const refuse = (reason: string): RefusedWebhook => ({ ok: false, reason });

/** Parses the URL and checks what needs no DNS: scheme and credentials. */
function parseWebhook(raw: string, mode: WebhookMode): URL | RefusedWebhook {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('webhook is not a valid URL');
  }
  const schemes = mode === 'mainnet' ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) {
    return refuse(mode === 'mainnet' ? 'webhook must use https' : 'webhook must use http or https');
  }
  if (url.username !== '' || url.password !== '') return refuse('webhook must not carry credentials');
  return url;
}

/**
 * Checks a webhook URL and every address its host resolves to. IP literals in any form the URL
 * standard accepts (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, bracketed IPv6) are
 * normalised by the URL parser first, so they are checked as the addresses they are.
 */
export async function checkWebhook(
  raw: string,
  options: WebhookCheckOptions,
): Promise<CheckedWebhook | RefusedWebhook> {
  const url = parseWebhook(raw, options.mode);
  if (!(url instanceof URL)) return url;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: readonly ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      return refuse(`webhook host ${host} does not resolve`);
    }
    if (addresses.length === 0) return refuse(`webhook host ${host} does not resolve`);
  }
  for (const { address } of addresses) {
    const kind = nonPublicKind(address, options.mode);
    if (kind !== null) {
      const what =
        address === host ? `webhook address ${address}` : `webhook host ${host} resolves to ${address}`;
      return refuse(`${what}, ${kind}, which is not allowed`);
    }
  }
  return { ok: true, url, addresses };
}

/**
 * An HTTP request's `lookup` that answers with the checked addresses only, whatever the host
 * name would resolve to now: the connection goes to an address the guard approved.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    if (usable.length === 0) {
      const error = Object.assign(new Error('no checked address of the wanted family'), {
        code: 'ENOTFOUND',
      });
      callback(error, '', 0);
      return;
    }
    if (options.all === true) {
      (callback as unknown as (e: null, all: ResolvedAddress[]) => void)(null, [...usable]);
      return;
    }
    const first = usable[0] as ResolvedAddress;
    callback(null, first.address, first.family);
  };
}
