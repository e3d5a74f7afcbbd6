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
 * page) once the form has been painted.
 *
 * What the first paint needs is in the page itself, so it waits for no other request: the
 * early script (the server's CSP allows it by its hash, `src/server/plumbing/inline-scripts.ts`),
 * the console's own styles, and, in place of antd's whole stylesheet (~740 KB, whose parsing
 * held the paint back), the antd styles of the form alone, which the prerender collects as it
 * renders. The whole stylesheet is preloaded, and applied before the console hydrates.
 *
 * The page is rendered from a server build of its entry (every import bundled, CommonJS
 * packages included), made into a temporary folder with the console's own import redirects.
 */
import react from '@vitejs/plugin-react';
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
/** The whole antd stylesheet's link (scripts/antd-static-styles.ts). */
const ANTD_STYLESHEET = /<link rel="stylesheet" href="(\/assets\/antd-[\w-]+\.css)">/;
/** The console's own stylesheets, which the build links from index.html. */
const OWN_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[\w-]+\.css)">/g;

/** An element with `text` as its content, which must not be able to end it early. */
function inline(tag: 'script' | 'style', text: string, attribute?: string): string {
  if (text.toLowerCase().includes(`</${tag}`)) throw new Error(`prerender: the ${tag} to inline contains </${tag}`);
  return `<${tag}${attribute ? ` ${attribute}` : ''}>${text}</${tag}>`;
}

interface PrerenderModule {
  renderLoginPage(): Promise<{ markup: string; css: string }>;
  earlyScript(entry: string, stylesheet: string): string;
  LOGIN_STYLESHEET_ATTRIBUTE: string;
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
      // The form's antd styles in the whole stylesheet's place; the whole one is preloaded and applied by the early script.
      const antdTag = ANTD_STYLESHEET.exec(index);
      if (!antdTag) throw new Error("prerender: no link to antd's stylesheet in the built index.html");
      const early = page.earlyScript(entryTag[1]!, antdTag[1]!);
      let html = index
        .replace(entryTag[0], `<link rel="modulepreload" crossorigin href="${entryTag[1]!}">`)
        .replace(antdTag[0], () => `${inline('style', page.css, page.LOGIN_STYLESHEET_ATTRIBUTE)}\n    <link rel="preload" as="style" href="${antdTag[1]!}">`)
        // First in <head>: it decides before the first paint whether the markup may show.
        .replace('<head>', () => `<head>\n    ${inline('script', early)}\n    <style>html[data-prerender='off'] #root[data-prerendered] { display: none; }</style>`)
        .replace(ROOT_ELEMENT, () => `<div id="root" data-prerendered="${PRERENDERED_PAGE.path}">${page.markup}</div>`);
      // The console's own stylesheets too: the page then needs nothing but itself for its first paint.
      for (const tag of index.matchAll(OWN_STYLESHEET)) {
        html = html.replace(tag[0], () => inline('style', readFileSync(join(outDir, tag[1]!), 'utf8')));
      }
      const file = join(outDir, PRERENDERED_PAGE.file);
      writeFileSync(file, html);
      compressCopies(file);
    },
  };

  async function renderPage(projectRoot: string): Promise<PrerenderModule & { markup: string; css: string }> {
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
      return { ...mod, ...(await mod.renderLoginPage()) };
    } finally {
      process.env.NODE_ENV = nodeEnv;
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
