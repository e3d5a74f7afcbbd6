/**
 * A Vite plugin that prerenders the sign-in page: once the console is built, the page the
 * console shows at /login to a first-time visitor (`src/web/prerender/login-page.tsx`) is
 * rendered to HTML with react-dom/server and written into a copy of the built index.html,
 * `login.html`, which the server sends for /login. The browser paints the form as soon as the
 * HTML and styles are in, and the console hydrates it when its scripts have run (they took
 * 0.5–1 s on this project's 2-core machines, most of the time to a usable form).
 *
 * The page carries one small script before anything else (`earlyScript`): it keeps the
 * prerendered markup hidden from a visitor it was not made for (English, dark theme, signed
 * in), whose console renders anew, holds a form submitted before hydration for the page to
 * submit once it can, and starts the console's entry (preloaded, no longer a script of the
 * page) once the form has been painted. Its file goes with the hashed assets, so the page's
 * CSP holds ('self').
 *
 * The page is rendered from a server build of its entry (every import bundled, CommonJS
 * packages included), made into a temporary folder with the console's own import redirects.
 */
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { PRERENDERED_PAGE } from '../src/shared/prerendered-page.ts';
import { compressCopies } from './precompress.ts';

const ENTRY = 'src/web/prerender/login-page.tsx';
const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

interface PrerenderModule {
  renderLoginPage(): Promise<string>;
  earlyScript(entry: string): string;
}

/** `redirects`: the console build's import redirects (vite.config.ts), so the server build resolves as the browser's. */
export function prerenderLogin(redirects: Plugin[]): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'switchyard-prerender-login',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const indexFile = join(outDir, 'index.html');
      // A build that failed before writing anything leaves nothing to prerender.
      if (!existsSync(indexFile)) return;
      const page = await renderPage(root);
      const index = readFileSync(indexFile, 'utf8');
      if (!index.includes(ROOT_ELEMENT)) throw new Error(`prerender: ${ROOT_ELEMENT} not found in the built index.html`);
      // The entry script is preloaded, and run by the early script (see `earlyScript`).
      const entryTag = ENTRY_SCRIPT.exec(index);
      if (!entryTag) throw new Error('prerender: no entry <script type="module"> in the built index.html');
      const early = page.earlyScript(entryTag[1]!);
      const earlyFile = `assets/prerender-early-${createHash('sha256').update(early).digest('base64url').slice(0, 8)}.js`;
      writeFileSync(join(outDir, earlyFile), early);
      compressCopies(join(outDir, earlyFile));
      const html = index
        .replace(entryTag[0], `<link rel="modulepreload" crossorigin href="${entryTag[1]!}">`)
        .replace(
          '<head>',
          // First in <head>: it decides before the first paint whether the markup may show.
          `<head>\n    <script src="/${earlyFile}"></script>\n    <style>html[data-prerender='off'] #root[data-prerendered] { display: none; }</style>`,
        )
        .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${PRERENDERED_PAGE.path}">${page.markup}</div>`);
      const file = join(outDir, PRERENDERED_PAGE.file);
      writeFileSync(file, html);
      compressCopies(file);
    },
  };

  async function renderPage(projectRoot: string): Promise<PrerenderModule & { markup: string }> {
    const tmp = mkdtempSync(join(tmpdir(), 'switchyard-prerender-'));
    // antd's class names and React's server renderer as in production.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: false,
        root: projectRoot,
        mode: 'production',
        logLevel: 'warn',
        plugins: [react(), ...redirects],
        ssr: { noExternal: true, target: 'node' },
        build: {
          ssr: join(projectRoot, ENTRY),
          outDir: tmp,
          emptyOutDir: true,
          minify: false,
          copyPublicDir: false,
          rolldownOptions: { output: { entryFileNames: 'login-page.mjs' } },
        },
      });
      const mod = (await import(pathToFileURL(join(tmp, 'login-page.mjs')).href)) as PrerenderModule;
      return { ...mod, markup: await mod.renderLoginPage() };
    } finally {
      process.env.NODE_ENV = nodeEnv;
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
