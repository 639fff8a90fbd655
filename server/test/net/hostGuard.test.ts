/** The DNS-rebinding guard's decisions, one Host and Origin at a time (the route tests: mcp/http.test.ts, mcp/rebinding.test.ts). */
import { describe, expect, it } from 'vitest';
import { hostPolicy, hostRefusal } from '../../src/net/hostGuard';

const loopback = hostPolicy();
const allowed = hostPolicy({
  allowedHosts: ['api.example.com'],
  allowedOrigins: ['https://agent.example'],
  corsOrigins: ['https://app.example'],
});

describe('hostRefusal', () => {
  it('passes loopback names on any port, in any case, with no Origin or a loopback one', () => {
    for (const host of ['localhost', 'LOCALHOST:8787', '127.0.0.1:1', '[::1]', '[::1]:8787']) {
      expect(hostRefusal(loopback, host, undefined), host).toBeUndefined();
    }
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:3000']) {
      expect(hostRefusal(loopback, 'localhost', origin), origin).toBeUndefined();
    }
  });

  it('refuses other hosts, including ones dressed as loopback, and a missing Host', () => {
    for (const host of [
      'evil.example.com',
      'localhost.evil.example.com',
      '127.0.0.1.nip.io',
      'evil.example.com@127.0.0.1',
      '127.0.0.1/..',
      '127.0.0.1 ',
      '0.0.0.0',
      'api.example.com',
    ]) {
      expect(hostRefusal(loopback, host, undefined), host).toMatch(/^Host ".*" is not allowed: .*PROPS_ALLOWED_HOSTS/);
    }
    expect(hostRefusal(loopback, undefined, undefined)).toMatch(/^a request without a Host header is not allowed/);
  });

  it('refuses foreign, opaque and non-web origins on a loopback host', () => {
    for (const origin of ['http://evil.example.com', 'null', 'file://', 'chrome-extension://abc', 'not a url']) {
      expect(hostRefusal(loopback, 'localhost', origin), origin).toMatch(/^Origin ".*" is not allowed/);
    }
  });

  it('with allowed names: their hosts, their pages, and listed origins pass; exact origins only', () => {
    expect(hostRefusal(allowed, 'api.example.com:443', 'https://api.example.com')).toBeUndefined();
    expect(hostRefusal(allowed, 'API.EXAMPLE.COM', 'https://agent.example')).toBeUndefined();
    expect(hostRefusal(allowed, 'api.example.com', 'https://app.example')).toBeUndefined();
    expect(hostRefusal(allowed, 'api.example.com', 'http://agent.example')).toMatch(/^Origin/);
    expect(hostRefusal(allowed, 'www.example.com', undefined)).toMatch(/^Host/);
    expect(hostRefusal(hostPolicy({ corsOrigins: '*' }), 'localhost', 'https://app.example')).toMatch(/^Origin/);
  });

  it('quotes what it echoes, cut to 100 characters', () => {
    const refusal = hostRefusal(loopback, `"${'x'.repeat(500)}`, undefined) ?? '';
    expect(refusal.startsWith(`Host "\\"${'x'.repeat(99)}… (501 characters)" is not allowed`)).toBe(true);
  });
});
