/**
 * Where a webhook may be sent (SSRF): https:// only, unless the operator allows http:// and
 * loopback (PROPS_WEBHOOK_ALLOW_HTTP, for development and tests); never an address that is
 * private, link-local, a cloud metadata service or otherwise not on the public Internet
 * (unless PROPS_WEBHOOK_ALLOW_PRIVATE; metadata never). A name is resolved and every address
 * it gives is checked, at registration and again before each attempt, and the attempt
 * connects to the address checked, so a name that changes its answer (DNS rebinding) cannot
 * swap it.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (tests inject one that never leaves the machine). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface TargetPolicy {
  /** http:// and loopback addresses (PROPS_WEBHOOK_ALLOW_HTTP). */
  allowHttp: boolean;
  /** Private and link-local addresses (PROPS_WEBHOOK_ALLOW_PRIVATE); metadata addresses never. */
  allowPrivate: boolean;
  resolve: Resolver;
}

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

function blockList(entries: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, type] of entries) list.addSubnet(net, prefix, type);
  return list;
}

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const LINK_LOCAL = blockList([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);
/** Not routable on the Internet: this network, documentation, benchmarking, multicast, reserved. */
const RESERVED = blockList([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** What kind of address this is (an IP literal, either family). */
export function addressKind(address: string): AddressKind {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : undefined;
  if (v4 !== undefined) return addressKind(v4);
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (METADATA.has(address.toLowerCase())) return 'metadata';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (PRIVATE.check(address, type)) return 'private';
  if (RESERVED.check(address, type)) return 'reserved';
  return 'public';
}

const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address (allowed only with PROPS_WEBHOOK_ALLOW_HTTP, for development)',
  private: 'a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)',
  'link-local': 'a link-local address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)',
  metadata: 'a cloud metadata address',
  reserved: 'an address that is not on the public Internet',
};

function allowed(kind: AddressKind, policy: TargetPolicy): boolean {
  if (kind === 'public') return true;
  if (kind === 'loopback') return policy.allowHttp;
  if (kind === 'private' || kind === 'link-local') return policy.allowPrivate;
  return false;
}

/** A target that may be sent to: the URL and the address the attempt connects to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

export type TargetCheck = { ok: true; target: CheckedTarget } | { ok: false; reason: string };

/** The URL's own problems (scheme, credentials), before any name is resolved; undefined when none. */
export function urlProblem(raw: string, policy: Pick<TargetPolicy, 'allowHttp'>): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the url is not a valid absolute URL';
  }
  if (url.protocol === 'http:' && !policy.allowHttp) {
    return 'the url must be https:// (http:// only where the operator sets PROPS_WEBHOOK_ALLOW_HTTP, for development)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'the url must be https://';
  if (url.username !== '' || url.password !== '') return 'the url must not carry a user name or password';
  return undefined;
}

/** Verdicts on URLs whose host is an IP address: they never change, so each is judged once per policy. */
const literalVerdicts = new WeakMap<TargetPolicy, Map<string, TargetCheck>>();
const MAX_LITERAL_VERDICTS = 10_000;

/**
 * Checks a webhook URL: its scheme, then every address its host resolves to. `ok` carries the
 * address to connect to (the first allowed one, when all are allowed). A name is resolved on
 * every call; a URL whose host is an IP address is judged once.
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<TargetCheck> {
  let known = literalVerdicts.get(policy);
  const cached = known?.get(raw);
  if (cached) return cached;
  const check = await judgeTarget(raw, policy);
  if (check.ok && isIP(check.target.url.hostname.replace(/^\[|\]$/g, '')) !== 0) {
    if (!known) {
      known = new Map();
      literalVerdicts.set(policy, known);
    }
    if (known.size >= MAX_LITERAL_VERDICTS) known.clear();
    known.set(raw, check);
  }
  return check;
}

async function judgeTarget(raw: string, policy: TargetPolicy): Promise<TargetCheck> {
  const problem = urlProblem(raw, policy);
  if (problem) return { ok: false, reason: problem };
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return { ok: false, reason: `the host ${host} does not resolve${code ? ` (${code})` : ''}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `the host ${host} does not resolve` };
  }
  for (const a of addresses) {
    const kind = addressKind(a.address);
    if (!allowed(kind, policy)) {
      const via = a.address === host ? '' : ` (${host} resolves to ${a.address})`;
      return { ok: false, reason: `the url's host is ${KIND_WORDS[kind as Exclude<AddressKind, 'public'>]}${via}` };
    }
  }
  return { ok: true, target: { url, address: addresses[0] as ResolvedAddress } };
}
