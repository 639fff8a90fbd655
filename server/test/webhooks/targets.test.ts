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
