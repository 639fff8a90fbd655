/**
 * The network an address belongs to, as far as one client is concerned: its /24 for IPv4
 * (one site or subscriber rarely holds more, and rotating within it is trivial) and its /64
 * for IPv6 (the smallest prefix a subscriber is routinely given). Ceilings kept per network
 * cannot be reset by rotating source addresses inside it.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped?.[1] ?? address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  // Not an address (a test's injected name, a Unix socket): itself.
  return address;
}

/**
 * The site an address belongs to: its /24 for IPv4, its /48 for IPv6 (what a site, or one
 * customer of a hosting provider, is commonly assigned: thousands of /64s each).
 */
export function siteOf(address: string): string {
  if (!address.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return networkOf(address);
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 3).join(':')}::/48`;
}

/** The eight groups of an IPv6 address, without leading zeros (a zone or embedded IPv4 dropped). */
function expandIPv6(address: string): string[] {
  const plain = address.split('%')[0] ?? '';
  const [head = '', tail] = plain.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  const all = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
  return all.map((g) => (g.includes('.') ? '0' : (Number.parseInt(g, 16) || 0).toString(16)));
}
