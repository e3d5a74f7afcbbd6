/**
 * The guard for URLs users supply: only public unicast addresses pass, whatever the way an
 * address is written; the connect-time lookup refuses names that resolve to anything else.
 */
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { classifyHost, hasLiteralPrivateHost, isPublicAddress, publicOnlyAgent } from '../../src/server/plumbing/public-address';

describe('public addresses', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => expect(isPublicAddress(a)).toBe(true));
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    'not-an-ip',
  ])('%s is not', (a) => expect(isPublicAddress(a)).toBe(false));

  it('spots literal private hosts in URLs, however they are written', () => {
    for (const url of ['http://127.0.0.1/x', 'https://[::1]/', 'https://2130706433/', 'http://0x7f.1/', 'http://169.254.169.254/latest']) {
      expect(hasLiteralPrivateHost(new URL(url)), url).toBe(true);
    }
    expect(hasLiteralPrivateHost(new URL('https://example.com/a.png'))).toBe(false);
  });

  it('refuses to connect to loopback through a name at connect time', async () => {
    const server = createServer((_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // The plain request reaches it: the server is there.
      expect(await (await request(`http://localhost:${port}/`)).body.text()).toBe('secret');
      await expect(request(`http://localhost:${port}/`, { dispatcher: publicOnlyAgent() })).rejects.toThrow(/non-public address/);
    } finally {
      server.close();
    }
  });

  it('classifies hosts for the check when a URL is saved: literals without a lookup, names by what they resolve to', async () => {
    expect(await classifyHost('[::1]')).toBe('private');
    expect(await classifyHost('169.254.169.254')).toBe('private');
    expect(await classifyHost('8.8.8.8')).toBe('public');
    expect(await classifyHost('localhost')).toBe('private');
    // No answer (here: a reserved name that never resolves) is left to the connect-time check.
    expect(await classifyHost('nothing-here.invalid')).toBe('unresolved');
  });
});
