/**
 * PROPS_TRUST_PROXY: whose X-Forwarded-For the server believes when it decides a client's
 * address (sign-up ceilings, admin-token failures, logs). Unset, nobody's: a client can write
 * any X-Forwarded-For, so only the socket's address counts. Behind a load balancer, either the
 * number of proxy hops in front of the server or the proxies' own addresses and CIDRs
 * (Fastify's trustProxy takes both forms).
 */
import { BlockList, isIP } from 'node:net';

/** false: no proxy; a hop count; or the trusted proxies' addresses and CIDRs. */
export type TrustProxy = false | number | readonly string[];

const MAX_HOPS = 16;

export function parseTrustProxy(value: string): { trust: TrustProxy } | { error: string } {
  const text = value.trim();
  if (text === '') return { trust: false };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) return { error: `a hop count is at most ${MAX_HOPS}` };
    return { trust: hops === 0 ? false : hops };
  }
  const proxies: string[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (!isAddressOrCidr(item)) {
      return {
        error: `'${item}' is neither a hop count nor a proxy address or CIDR (like 10.0.0.0/8, 2001:db8::/32 or 10.1.2.3)`,
      };
    }
    proxies.push(item);
  }
  return { trust: proxies };
}

function isAddressOrCidr(item: string): boolean {
  const [address = '', bits, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** Whether a socket's peer is one of the trusted proxies (with a hop count, any peer is). */
export function isTrustedProxy(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => true;
  const list = new BlockList();
  for (const item of trust) {
    const [address = '', bits] = item.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}
