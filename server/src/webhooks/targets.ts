/**
 * Where a webhook may be sent (SSRF): https:// only, unless the operator allows http:// and
 * loopback (PROPS_WEBHOOK_ALLOW_HTTP, for development and tests); never an address that is
 * private, link-local, a cloud metadata service or otherwise not on the public Internet
 * (unless PROPS_WEBHOOK_ALLOW_PRIVATE; metadata never). ipaddr.js names the ranges; an IPv6
 * form that carries an IPv4 address (mapped, translated, compatible, 6to4, NAT64, Teredo) is
 * judged by the address it carries, and only the plain mapped form may carry a non-public one
 * (under the same flags as the IPv4 address itself). A name is resolved and every address
 * it gives is checked, at registration and again before each attempt, and the attempt
 * connects to the address checked, so a name that changes its answer (DNS rebinding) cannot
 * swap it.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/**
 * The IPv6 forms that carry an IPv4 address. `mapped` (::ffff:a.b.c.d) is that IPv4 address
 * itself to a socket; the others reach it through a tunnel or a translator (on a host with
 * such a route), and are never allowed to carry one that is not public, whatever the flags.
 */
export type CarrierForm = 'mapped' | 'translated' | 'compatible' | '6to4' | 'nat64' | 'teredo';

export interface AddressVerdict {
  kind: AddressKind;
  /** Set when the address is an IPv6 form carrying IPv4 addresses: the verdict is theirs. */
  carrier?: { form: CarrierForm; carried: string[]; refused?: string };
  /** What a `reserved` address is, when ipaddr.js names its range (e.g. deprecatedSiteLocal). */
  range?: string;
}

/** Cloud metadata and platform services: always refused, whatever the flags. */
const METADATA = new Set(
  [
    '169.254.169.254', // AWS, GCP, Azure, Oracle, DigitalOcean…
    '169.254.170.2', // ECS task metadata
    '169.254.170.23', // EKS Pod Identity agent
    '100.100.100.200', // Alibaba Cloud
    '168.63.129.16', // Azure platform (WireServer)
    'fd00:ec2::254', // AWS IMDS over IPv6
    'fd00:ec2::23', // EKS Pod Identity agent over IPv6
  ].map((a) => ipaddr.parse(a).toNormalizedString()),
);

/** ipaddr.js's names of IPv4 ranges that are allowed under a flag; every other named range is reserved. */
const V4_KINDS: Record<string, AddressKind> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
};
const V6_KINDS: Record<string, AddressKind> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
};

const v4Of = (bytes: readonly number[]): ipaddr.IPv4 => new ipaddr.IPv4(bytes.slice(0, 4));

/**
 * The IPv4 addresses an IPv6 one carries, by its range as ipaddr.js names it: IPv4-mapped and
 * IPv4-translated (RFC 6145) in the last 32 bits; IPv4-compatible (::a.b.c.d, deprecated) in the
 * last 32 bits; 6to4 (2002::/16) in bits 16-47; NAT64's well-known prefix (64:ff9b::/96) in the
 * last 32 bits and its local-use prefix (64:ff9b:1::/48, RFC 8215) wherever RFC 6052 puts it for
 * each prefix length the /48 admits (48, 56, 64, 96: every one is checked); Teredo (2001::/32)
 * its server in bits 32-63 and its client in the last 32 bits, inverted.
 */
function carriedBy(address: ipaddr.IPv6): AddressVerdict['carrier'] {
  const b = address.toByteArray();
  const last = b.slice(12, 16);
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'mapped', carried: [v4Of(last).toString()] };
    case 'rfc6145':
      return { form: 'translated', carried: [v4Of(last).toString()] };
    case '6to4':
      return { form: '6to4', carried: [v4Of(b.slice(2, 6)).toString()] };
    case 'teredo':
      return {
        form: 'teredo',
        carried: [v4Of(b.slice(4, 8)).toString(), v4Of(last.map((x) => x ^ 0xff)).toString()],
      };
    case 'rfc6052': {
      // The well-known /96, or the local-use /48 written as a /96 (bits 48-95 zero).
      if (b.slice(4, 12).every((x) => x === 0) || (b[4] === 0 && b[5] === 1 && b.slice(6, 12).every((x) => x === 0))) {
        return { form: 'nat64', carried: [v4Of(last).toString()] };
      }
      const positions = [
        [6, 7, 9, 10],
        [7, 9, 10, 11],
        [9, 10, 11, 12],
        [12, 13, 14, 15],
      ];
      return { form: 'nat64', carried: positions.map((at) => v4Of(at.map((i) => b[i] as number)).toString()) };
    }
    default:
      // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 are their own).
      if (b.slice(0, 12).every((x) => x === 0) && address.range() === 'unicast') {
        return { form: 'compatible', carried: [v4Of(last).toString()] };
      }
      return undefined;
  }
}

/**
 * What a carrier is judged as: a metadata address wherever it carries one, else the first
 * non-public address it carries (public when all are).
 */
function carriedKind(carried: readonly string[]): { kind: AddressKind; refused?: string } {
  const kinds = carried.map((a) => addressKind(a));
  if (kinds.includes('metadata')) return { kind: 'metadata' };
  const at = kinds.findIndex((k) => k !== 'public');
  return at < 0 ? { kind: 'public' } : { kind: kinds[at] as AddressKind, refused: carried[at] as string };
}

/**
 * An IPv6 address with a dotted IPv4 tail written in hex (`::127.0.0.1` → `::7f00:1`): ipaddr.js
 * reads every dotted tail as IPv4-mapped, so `::127.0.0.1` (IPv4-compatible) would pass as mapped.
 */
function hexTail(address: string): string {
  const tail = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!tail) return address;
  const [a, b, c, d] = tail.slice(2).map(Number) as [number, number, number, number];
  if ([a, b, c, d].some((x) => x > 255)) return address;
  return `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** What an address is (an IP literal of either family; anything unparsable is reserved). */
export function judgeAddress(address: string): AddressVerdict {
  const spelled = address.includes(':') ? hexTail(address) : address;
  if (!ipaddr.isValid(spelled)) return { kind: 'reserved' };
  const parsed = ipaddr.parse(spelled);
  if (METADATA.has(parsed.toNormalizedString())) return { kind: 'metadata' };
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    const kind = V4_KINDS[range] ?? 'reserved';
    return kind === 'reserved' ? { kind, range } : { kind };
  }
  const v6 = parsed as ipaddr.IPv6;
  const carrier = carriedBy(v6);
  if (carrier) {
    const { kind, refused } = carriedKind(carrier.carried);
    const judged = refused === undefined ? carrier : { ...carrier, refused };
    // The deprecated IPv4-compatible form is routed nowhere, whatever it carries.
    return { kind: carrier.form === 'compatible' && kind === 'public' ? 'reserved' : kind, carrier: judged };
  }
  const range = v6.range();
  const kind = V6_KINDS[range] ?? 'reserved';
  return kind === 'reserved' ? { kind, range } : { kind };
}

/** What kind of address this is (an IP literal, either family). */
export function addressKind(address: string): AddressKind {
  return judgeAddress(address).kind;
}

const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address (allowed only with PROPS_WEBHOOK_ALLOW_HTTP, for development)',
  private: 'a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)',
  'link-local': 'a link-local address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)',
  metadata: 'a cloud metadata address',
  reserved: 'an address that is not on the public Internet',
};

const FORM_WORDS: Record<Exclude<CarrierForm, 'mapped'>, string> = {
  translated: 'an IPv4-translated address (::ffff:0:a.b.c.d)',
  compatible: 'an IPv4-compatible address (::a.b.c.d, deprecated)',
  '6to4': 'a 6to4 address (2002::/16)',
  nat64: 'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)',
  teredo: 'a Teredo address (2001::/32)',
};

const KIND_NAMES: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  reserved: 'an address that is not on the public Internet',
};

function allowed(verdict: AddressVerdict, policy: TargetPolicy): boolean {
  const { kind, carrier } = verdict;
  if (kind === 'public') return true;
  // A tunnelled or translated spelling of a non-public IPv4 address: never.
  if (carrier && carrier.form !== 'mapped') return false;
  if (kind === 'loopback') return policy.allowHttp;
  if (kind === 'private' || kind === 'link-local') return policy.allowPrivate;
  return false;
}

/** Why an address is refused, in the words the docs use. */
function refusal(verdict: AddressVerdict): string {
  const kind = verdict.kind as Exclude<AddressKind, 'public'>;
  const carrier = verdict.carrier;
  if (!carrier || carrier.form === 'mapped' || kind === 'metadata') {
    return `${KIND_WORDS[kind]}${verdict.range ? ` (${verdict.range})` : ''}`;
  }
  if (carrier.refused === undefined) return FORM_WORDS[carrier.form];
  return `${FORM_WORDS[carrier.form]} carrying ${carrier.refused}, ${KIND_NAMES[kind]} (an IPv6 form carrying a non-public IPv4 address is never allowed)`;
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
    const verdict = judgeAddress(a.address);
    if (!allowed(verdict, policy)) {
      const via = a.address === host ? '' : ` (${host} resolves to ${a.address})`;
      return { ok: false, reason: `the url's host is ${refusal(verdict)}${via}` };
    }
  }
  return { ok: true, target: { url, address: addresses[0] as ResolvedAddress } };
}
