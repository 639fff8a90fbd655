/**
 * Where a webhook may go (SSRF): https:// only unless http is allowed; never a private,
 * link-local, metadata or otherwise non-public address, whether written as an IP or resolved
 * from a name (every address a name gives is checked). Names resolve through a fake resolver:
 * nothing here looks anything up.
 */
import { describe, expect, it } from 'vitest';
import { addressKind, checkTarget, type TargetPolicy } from '../../src/webhooks/targets';
import { offlineResolver } from '../helpers/app';

const resolve = offlineResolver({
  'hooks.example.com': '93.184.215.14',
  'rebind.example.com': '127.0.0.1',
  'inside.example.com': '10.1.2.3',
  'v6.example.com': '2606:2800:220:1:248:1893:25c8:1946',
});
const strict: TargetPolicy = { allowHttp: false, allowPrivate: false, resolve };
const dev: TargetPolicy = { allowHttp: true, allowPrivate: false, resolve };

const reason = async (url: string, policy = strict) => {
  const check = await checkTarget(url, policy);
  return check.ok ? 'ok' : check.reason;
};

describe('addressKind', () => {
  it.each([
    ['93.184.215.14', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.8.7', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.10.10', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'metadata'],
    ['fec0::1', 'reserved'],
    ['168.63.129.16', 'metadata'],
    ['169.254.170.23', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['2002:808:808::1', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('checkTarget', () => {
  it('accepts https:// to a public address, connecting to the address it checked', async () => {
    const check = await checkTarget('https://hooks.example.com/propsfeed', strict);
    expect(check).toMatchObject({ ok: true, target: { address: { address: '93.184.215.14', family: 4 } } });
  });

  it('refuses the metadata service, private networks and a name resolving to loopback', async () => {
    expect(await reason('http://169.254.169.254/', dev)).toBe("the url's host is a cloud metadata address");
    expect(await reason('https://169.254.169.254/latest/meta-data')).toBe("the url's host is a cloud metadata address");
    expect(await reason('http://10.0.0.1/', dev)).toMatch(/^the url's host is a private network address/);
    expect(await reason('https://10.0.0.1/')).toMatch(/private network address/);
    expect(await reason('https://rebind.example.com/')).toBe(
      "the url's host is a loopback address (allowed only with PROPS_WEBHOOK_ALLOW_HTTP, for development) (rebind.example.com resolves to 127.0.0.1)",
    );
    expect(await reason('https://inside.example.com/')).toMatch(/inside\.example\.com resolves to 10\.1\.2\.3/);
    expect(await reason('https://[::ffff:169.254.169.254]/')).toBe("the url's host is a cloud metadata address");
    expect(await reason('https://[fe80::1]/')).toMatch(/link-local/);
  });

  it('allows loopback (and http) only with the development setting, private only with its own, metadata never', async () => {
    expect(await reason('http://127.0.0.1:9000/', dev)).toBe('ok');
    expect(await reason('https://rebind.example.com/', dev)).toBe('ok');
    expect(await reason('http://127.0.0.1:9000/')).toMatch(/must be https:\/\//);
    const inside = { ...strict, allowPrivate: true };
    expect(await reason('https://10.0.0.1/', inside)).toBe('ok');
    expect(await reason('https://169.254.169.254/', { ...inside, allowHttp: true })).toMatch(/metadata/);
  });

  it('refuses other schemes, credentials in the URL and names that do not resolve', async () => {
    expect(await reason('ftp://hooks.example.com/')).toBe('the url must be https://');
    expect(await reason('https://user:pw@hooks.example.com/')).toBe('the url must not carry a user name or password');
    expect(await reason('https://nowhere.invalid/')).toBe('the host nowhere.invalid does not resolve (ENOTFOUND)');
    expect(await reason('not a url')).toBe('the url is not a valid absolute URL');
  });

  it('checks every address a name resolves to, not only the first', async () => {
    const both: TargetPolicy = {
      ...strict,
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    };
    expect(await reason('https://split.example.com/', both)).toMatch(/split\.example\.com resolves to 10\.0\.0\.7/);
  });
});

/** The policies the PROPS_WEBHOOK_* flags make: none, each, both. */
const POLICIES: [string, TargetPolicy][] = [
  ['no flag', strict],
  ['PROPS_WEBHOOK_ALLOW_HTTP', dev],
  ['PROPS_WEBHOOK_ALLOW_PRIVATE', { ...strict, allowPrivate: true }],
  ['both flags', { ...strict, allowHttp: true, allowPrivate: true }],
];

const octets = (v4: string) => v4.split('.').map(Number) as [number, number, number, number];
const hex = (n: number) => n.toString(16);
/** Every IPv6 spelling that carries an IPv4 address, written around `v4`. */
const FORMS: [form: string, spell: (v4: string) => string, words: string | undefined][] = [
  ['IPv4-mapped', (v4) => `::ffff:${v4}`, undefined],
  ['IPv4-translated', (v4) => `::ffff:0:${v4}`, 'an IPv4-translated address (::ffff:0:a.b.c.d)'],
  ['IPv4-compatible', (v4) => `::${v4}`, 'an IPv4-compatible address (::a.b.c.d, deprecated)'],
  [
    '6to4',
    (v4) => {
      const [a, b, c, d] = octets(v4);
      return `2002:${hex((a << 8) | b)}:${hex((c << 8) | d)}::1`;
    },
    'a 6to4 address (2002::/16)',
  ],
  ['NAT64 well-known', (v4) => `64:ff9b::${v4}`, 'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)'],
  ['NAT64 local-use /96', (v4) => `64:ff9b:1::${v4}`, 'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)'],
  [
    // RFC 6052 with a /48 prefix: bits 48-63, the zero u-octet, then bits 72-87.
    'NAT64 local-use /48',
    (v4) => {
      const [a, b, c, d] = octets(v4);
      return `64:ff9b:1:${hex((a << 8) | b)}:${hex(c)}:${hex(d << 8)}::`;
    },
    'a NAT64 address (64:ff9b::/96 or 64:ff9b:1::/48)',
  ],
  [
    // The client's address, inverted in the last 32 bits (the server is Microsoft's public one).
    'Teredo client',
    (v4) => {
      const [a, b, c, d] = octets(v4).map((x) => x ^ 0xff) as [number, number, number, number];
      return `2001:0:4136:e378:8000:63bf:${hex((a << 8) | b)}:${hex((c << 8) | d)}`;
    },
    'a Teredo address (2001::/32)',
  ],
  [
    // The server's address in bits 32-63 (the client a public one, 8.8.8.8 inverted).
    'Teredo server',
    (v4) => {
      const [a, b, c, d] = octets(v4);
      return `2001:0:${hex((a << 8) | b)}:${hex((c << 8) | d)}:8000:63bf:f7f7:f7f7`;
    },
    'a Teredo address (2001::/32)',
  ],
];
const CARRIED: [v4: string, kind: string][] = [
  ['127.0.0.1', 'a loopback address'],
  ['10.0.0.1', 'a private network address'],
  ['169.254.169.254', 'a cloud metadata address'],
];
const PLAIN: Record<string, string> = {
  '127.0.0.1': 'a loopback address (allowed only with PROPS_WEBHOOK_ALLOW_HTTP, for development)',
  '10.0.0.1': 'a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)',
  '169.254.169.254': 'a cloud metadata address',
};

describe('IPv6 forms that carry an IPv4 address are judged by the address they carry', () => {
  const rows = POLICIES.flatMap(([flags, policy]) =>
    FORMS.flatMap(([form, spell, words]) =>
      CARRIED.map(([v4, kind]) => {
        const host = spell(v4);
        // Only the plain mapped form is that address itself, under the same flags; every
        // tunnelled or translated spelling of a non-public address is refused, whatever the flags.
        let expected: string;
        if (words === undefined) {
          const allowedHere = (v4 === '127.0.0.1' && policy.allowHttp) || (v4 === '10.0.0.1' && policy.allowPrivate);
          expected = allowedHere ? 'ok' : `the url's host is ${PLAIN[v4]}`;
        } else if (v4 === '169.254.169.254') {
          expected = "the url's host is a cloud metadata address";
        } else {
          expected = `the url's host is ${words} carrying ${v4}, ${kind} (an IPv6 form carrying a non-public IPv4 address is never allowed)`;
        }
        return { flags, form, v4, host, policy, expected };
      }),
    ),
  );

  it.each(rows)('$form carrying $v4, $flags: $expected', async ({ host, policy, expected }) => {
    expect(await reason(`https://[${host}]:9001/`, policy)).toBe(expected);
    // The same address from a name's answer is judged alike, saying which address it was.
    const named: TargetPolicy = { ...policy, resolve: async () => [{ address: host, family: 6 }] };
    const viaName = await reason('https://hooks.example.com/', named);
    expect(viaName).toBe(expected === 'ok' ? 'ok' : `${expected} (hooks.example.com resolves to ${host})`);
  });

  it('lets each form through when what it carries is public', async () => {
    for (const [form, spell, words] of FORMS) {
      const verdict = await reason(`https://[${spell('8.8.8.8')}]/`);
      if (form === 'IPv4-compatible') expect(verdict).toBe(`the url's host is ${words}`);
      // Read at every position RFC 6052 allows in the /48, some read carries 0.0.0.0: refused.
      else if (form === 'NAT64 local-use /48') expect(verdict).toMatch(/carrying 0\.0\.0\.0, an address that is not/);
      else expect(verdict, form).toBe('ok');
    }
  });
});

describe('the addresses the issue found accepted', () => {
  const never = '(an IPv6 form carrying a non-public IPv4 address is never allowed)';
  it.each([
    [
      'https://[::127.0.0.1]:9001/',
      `an IPv4-compatible address (::a.b.c.d, deprecated) carrying 127.0.0.1, a loopback address ${never}`,
    ],
    [
      'https://[::10.0.0.1]/',
      `an IPv4-compatible address (::a.b.c.d, deprecated) carrying 10.0.0.1, a private network address ${never}`,
    ],
    ['https://[2002:7f00:1::1]:9001/', `a 6to4 address (2002::/16) carrying 127.0.0.1, a loopback address ${never}`],
    ['https://[2002:a00:1::]/', `a 6to4 address (2002::/16) carrying 10.0.0.1, a private network address ${never}`],
    ['https://[64:ff9b:1::a9fe:a9fe]/', 'a cloud metadata address'],
    [
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:9001/',
      `a Teredo address (2001::/32) carrying 127.0.0.1, a loopback address ${never}`,
    ],
    ['https://[fec0::1]/', 'an address that is not on the public Internet (deprecatedSiteLocal)'],
    ['http://[::169.254.169.254]/', 'a cloud metadata address'],
    ['https://168.63.129.16/', 'a cloud metadata address'],
    ['https://169.254.170.23/', 'a cloud metadata address'],
    ['https://[fd00:ec2::23]/', 'a cloud metadata address'],
    ['https://[ff02::1]/', 'an address that is not on the public Internet (multicast)'],
    ['https://[2001:db8::1]/', 'an address that is not on the public Internet (reserved)'],
    ['https://[100::1]/', 'an address that is not on the public Internet (discard)'],
  ])('%s is refused with and without the flags: %s', async (url, words) => {
    for (const [, policy] of POLICIES) {
      if (url.startsWith('http:') && !policy.allowHttp) continue;
      expect(await reason(url, policy)).toBe(`the url's host is ${words}`);
    }
  });
});
