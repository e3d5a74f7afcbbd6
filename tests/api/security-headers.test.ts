/**
 * Security headers (issue #12, item 7): /api and the console answer with the
 * Content-Security-Policy and the other helmet headers, including refusals (404, 429); the
 * widget scripts (Turnstile, Telegram) are allowed only while their option is on; the relay's
 * scopes send none of them.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

const sqlite = { name: 'sqlite' as const, url: 'sqlite' };

function directive(res: Response, name: string): string | undefined {
  const csp = res.headers.get('content-security-policy') ?? '';
  return csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d === name || d.startsWith(`${name} `));
}

function expectHelmet(res: Response, what: string): void {
  expect(directive(res, 'script-src'), what).toMatch(/^script-src 'self' 'unsafe-eval'\s*$/);
  expect(directive(res, 'script-src-attr'), what).toBe("script-src-attr 'none'");
  expect(directive(res, 'default-src'), what).toBe("default-src 'self'");
  expect(directive(res, 'style-src'), what).toBe("style-src 'self' 'unsafe-inline'");
  expect(directive(res, 'img-src'), what).toBe("img-src 'self' data: https: http:");
  expect(directive(res, 'connect-src'), what).toBe("connect-src 'self' https:");
  expect(directive(res, 'frame-src'), what).toBe('frame-src https: http:');
  expect(directive(res, 'frame-ancestors'), what).toBe("frame-ancestors 'self'");
  expect(directive(res, 'object-src'), what).toBe("object-src 'none'");
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('strict-transport-security'), what).toBeNull();
}

describe('security headers', () => {
  let s: TestServer;
  let web: string;
  beforeAll(async () => {
    // A stand-in console build, so the console routes answer.
    web = mkdtempSync(join(tmpdir(), 'switchyard-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web, 'assets', 'app.js'), 'export {};');
    writeFileSync(join(web, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    s = await startTestServer(sqlite, { env: { WEB_DIST_DIR: web, GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '40', GLOBAL_API_RATE_LIMIT_DURATION: '60' } });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('come with the console, its files and every /api answer', async () => {
    for (const path of ['/', '/about', '/logo.svg', '/assets/missing.js', '/api/status', '/api/nothing', '/api/user/self']) {
      const res = await fetch(s.url + path);
      await res.arrayBuffer();
      expectHelmet(res, path);
    }
  });

  it('on the hashed build files, only those a script or stylesheet obeys', async () => {
    const res = await fetch(s.url + '/assets/app.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('export {};');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const documentOnly of [
      'content-security-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-xss-protection',
      'x-dns-prefetch-control',
      'etag',
      'last-modified',
    ]) {
      expect(res.headers.get(documentOnly), documentOnly).toBeNull();
    }
  });

  it('allow the Turnstile and Telegram scripts only while they are switched on', async () => {
    const { options } = s.app.ctx;
    await options.setInternal('TurnstileSiteKey', 'site-key');
    await options.setInternal('TurnstileSecretKey', 'secret-key');
    await options.setInternal('TelegramBotToken', '123:token');
    await options.setInternal('TelegramBotName', 'yard_bot');
    await options.setInternal('TurnstileCheckEnabled', 'true');
    await options.setInternal('TelegramOAuthEnabled', 'true');
    try {
      for (const path of ['/', '/api/status']) {
        const res = await fetch(s.url + path);
        await res.arrayBuffer();
        expect(directive(res, 'script-src'), path).toBe("script-src 'self' 'unsafe-eval' https://challenges.cloudflare.com https://telegram.org");
      }
    } finally {
      await options.setInternal('TurnstileCheckEnabled', 'false');
      await options.setInternal('TelegramOAuthEnabled', 'false');
    }
    const res = await fetch(`${s.url}/`);
    await res.arrayBuffer();
    expect(directive(res, 'script-src')).toMatch(/^script-src 'self' 'unsafe-eval'\s*$/);
  });

  it('stay off the relay', async () => {
    for (const [method, path] of [
      ['GET', '/v1/models'],
      ['POST', '/v1/chat/completions'],
      ['POST', '/pg/chat/completions'],
      ['GET', '/dashboard/billing/usage'],
    ] as const) {
      const res = await fetch(s.url + path, {
        method,
        headers: { authorization: 'Bearer sk-nothing', 'content-type': 'application/json', origin: 'https://app.example' },
        body: method === 'POST' ? '{}' : undefined,
      });
      await res.arrayBuffer();
      expect(res.headers.get('x-oneapi-request-id'), path).toBeTruthy();
      expect(res.headers.get('content-security-policy'), path).toBeNull();
      expect(res.headers.get('x-frame-options'), path).toBeNull();
    }
  });

  it('come with a rate-limit refusal too', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 60; i++) {
      last = await fetch(`${s.url}/api/status`);
      await last.arrayBuffer();
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expectHelmet(last!, '429');
  });
});
