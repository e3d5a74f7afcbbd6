/**
 * The console's files as served: the build's Brotli and gzip copies (scripts/precompress.ts)
 * go to browsers that accept them, the plain file to those that do not; hashed assets are
 * cached for a year, index.html never without asking again.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress';
import { startTestServer, type TestServer } from '../helpers/server';

const sqlite = { name: 'sqlite' as const, url: 'sqlite' };
/** A script large enough to be compressed (the plugin skips files under 1 KB). */
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, n) => `word-${n}`))};\n`;

/** The early script scripts/prerender-login.ts writes inline into the sign-in page. */
const EARLY_SCRIPT = "(function () { document.documentElement.setAttribute('data-prerender', 'on'); })();";
/** What scripts/prerender-login.ts writes: index.html with an inline early script and the sign-in page inside #root. */
const LOGIN_PAGE = `<!doctype html><head><script>${EARLY_SCRIPT}</script></head><div id="root" data-prerendered="/login"><form>${'<input/>'.repeat(300)}</form></div><script type="module" src="/assets/app-1a2b3c.js"></script>`;

async function get(url: string, acceptEncoding?: string) {
  const res = await request(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

/** The CSP source that allows an inline script with this text. */
function hashOf(script: string): string {
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

/** The body as the browser reads it, whatever encoding went. */
function decoded(page: Awaited<ReturnType<typeof get>>): string {
  return (page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.body) : page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.body) : page.body).toString();
}

describe('console files as served', () => {
  let s: TestServer;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'switchyard-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), `<!doctype html><div id="root"></div><script type="module" src="/assets/app-1a2b3c.js"></script>${' '.repeat(2000)}`);
    writeFileSync(join(web, 'login.html'), LOGIN_PAGE);
    writeFileSync(join(web, 'assets', 'app-1a2b3c.js'), SCRIPT);
    writeFileSync(join(web, 'assets', 'tiny-4d5e6f.js'), 'export {};');
    const plugin = precompress(web) as { closeBundle: () => void };
    plugin.closeBundle();
    s = await startTestServer(sqlite, { env: { WEB_DIST_DIR: web } });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('are compressed once at build time, and only where it pays', () => {
    expect(brotliDecompressSync(readFileSync(join(web, 'assets', 'app-1a2b3c.js.br'))).toString()).toBe(SCRIPT);
    expect(gunzipSync(readFileSync(join(web, 'assets', 'app-1a2b3c.js.gz'))).toString()).toBe(SCRIPT);
    expect(readFileSync(join(web, 'assets', 'app-1a2b3c.js.br')).length).toBeLessThan(SCRIPT.length / 3);
    expect(existsSync(join(web, 'assets', 'tiny-4d5e6f.js.br'))).toBe(false);
  });

  it('send the Brotli copy to a browser that accepts it, gzip to one that takes only gzip, the file to others', async () => {
    const url = `${s.url}/assets/app-1a2b3c.js`;
    const br = await get(url, 'gzip, deflate, br, zstd');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 3);

    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plain = await get(url, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);

    const tiny = await get(`${s.url}/assets/tiny-4d5e6f.js`, 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};');
  });

  it('cache hashed assets for a year and make browsers ask again for index.html', async () => {
    const asset = await get(`${s.url}/assets/app-1a2b3c.js`, 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/channel', '/login']) {
      const page = await get(s.url + path, 'gzip, br');
      expect(page.status, path).toBe(200);
      expect(page.headers['cache-control'], path).toBe('no-cache');
      const html = page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.body) : page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.body) : page.body;
      expect(html.toString(), path).toContain('/assets/app-1a2b3c.js');
    }
  });

  it('send the prerendered sign-in page for /login (and its query), never cached; index.html elsewhere', async () => {
    for (const path of ['/login', '/login?expired=true']) {
      const page = await get(s.url + path, 'gzip, br');
      expect(page.status, path).toBe(200);
      expect(page.headers['cache-control'], path).toBe('no-cache');
      expect(page.headers['content-type'], path).toMatch(/^text\/html/);
      expect(decoded(page), path).toBe(LOGIN_PAGE);
    }
    for (const path of ['/', '/register', '/login/x']) expect(decoded(await get(s.url + path, 'br')), path).not.toContain('data-prerendered');
  });

  it("allow the sign-in page's inline early script by its hash there, and no inline script anywhere else", async () => {
    const hash = hashOf(EARLY_SCRIPT);
    for (const [path, allowed] of [
      ['/login', [hash]],
      ['/login?expired=true', [hash]],
      ['/login.html', [hash]],
      ['/channel', []],
      ['/', []],
    ] as const) {
      const policy = String((await get(s.url + path, 'br')).headers['content-security-policy']);
      const scriptSrc = policy.split(';').find((d) => d.startsWith('script-src '));
      expect(scriptSrc, path).toBeDefined();
      expect(
        scriptSrc!.split(/\s+/).filter((source) => source.startsWith("'sha256-")),
        path,
      ).toEqual(allowed);
      expect(scriptSrc, path).not.toContain('unsafe-inline');
      expect(policy, path).toContain("script-src-attr 'none'");
    }
  });

  it('allow a sign-in page rebuilt under the running server by the hash of its new script', async () => {
    const rebuiltScript = "(function () { document.documentElement.setAttribute('data-prerender', 'rebuilt'); })();";
    const scriptSrcOf = async (path: string) => {
      const res = await get(s.url + path, 'br');
      const policy = String(res.headers['content-security-policy']);
      return {
        body: decoded(res),
        sources: policy
          .split(';')
          .find((d) => d.startsWith('script-src '))!
          .split(/\s+/),
      };
    };
    const rebuild = (page: string) => {
      writeFileSync(join(web, 'login.html'), page);
      (precompress(web) as { closeBundle: () => void }).closeBundle();
    };
    try {
      rebuild(LOGIN_PAGE.replace(EARLY_SCRIPT, rebuiltScript));
      for (const path of ['/login', '/login.html']) {
        const { body, sources } = await scriptSrcOf(path);
        expect(body, path).toContain(rebuiltScript);
        expect(sources, path).toContain(hashOf(rebuiltScript));
        expect(sources, path).not.toContain(hashOf(EARLY_SCRIPT));
      }
    } finally {
      rebuild(LOGIN_PAGE);
    }
    expect((await scriptSrcOf('/login')).sources).toContain(hashOf(EARLY_SCRIPT));
  });

  it('answer a missing asset with 404, compressed or not', async () => {
    expect((await get(`${s.url}/assets/nothing-000000.js`, 'br')).status).toBe(404);
    expect((await get(`${s.url}/assets/nothing-000000.js`)).status).toBe(404);
  });
});
