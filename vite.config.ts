/**
 * Builds the console (src/web) into dist/web, hashed assets under dist/web/assets/ (the
 * server serves /assets/* from there and falls back to index.html for routes). In
 * development Vite proxies the API and the gateway to the server on port 3000.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { precompress } from './scripts/precompress.ts';
import { antdStaticStyles } from './scripts/antd-static-styles.ts';
import { prerenderLogin } from './scripts/prerender-login.ts';

const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

/**
 * Packages whose modules have no side effects, but do not say so (no `sideEffects` in their
 * package.json), so the bundler keeps what they define at top level even when unused:
 * - papaparse (refine's CSV import and export) and error-stack-parser with stackframe (refine's
 *   devtools), CommonJS the console never calls; papaparse sets `onmessage` solely inside the
 *   worker it spawns itself.
 * - rc-motion, whose index brings `CSSMotionList` (a class with static props set at top level)
 *   to every page with a button, though only lists of animated items use it.
 * - react-markdown and the unified packages under it (remark, micromark, mdast, hast, unist,
 *   vfile ...), which @refinedev/antd's `MarkdownField` imports: the console renders Markdown
 *   with marked and DOMPurify (components/safe-html.ts), so ~100 KB of parser would otherwise
 *   ride along with every list screen.
 */
const SIDE_EFFECT_FREE = new RegExp(
  '[\\\\/]node_modules[\\\\/](' +
    [
      'papaparse|error-stack-parser|stackframe|rc-motion',
      'react-markdown|remark-[a-z-]+|micromark[a-z-]*|mdast-util-[a-z-]+|hast-util-[a-z-]+|unist-(util-[a-z-]+|builder)|vfile(-message)?|unified',
      'property-information|markdown-table|inline-style-parser|style-to-object|(comma|space)-separated-tokens|trough|bail|ccount|mdurl|parse-entities',
      'repeat-string|extend|xtend|is-plain-obj|is-buffer|escape-string-regexp',
    ].join('|') +
    ')[\\\\/]',
);

const own = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Imports inside antd pointed elsewhere, for the first page's size (/login has a budget,
 * docs/console.md). The importer's whole name and the import as written must match, so an
 * antd release that moves them only loses the saving.
 * - antd's form context module (which every input and ConfigProvider load) takes only
 *   `FormProvider` from rc-field-form, but through the package's index, whose top level hangs
 *   Field, List, useForm ... onto the Form component: so all of rc-field-form and its validator
 *   would load with the sign-in page, which has no antd Form. The module that defines
 *   `FormProvider` is the one the index re-exports (the very module, so the very state).
 * - antd renders its click wave and static calls through rc-util's legacy `render`, which
 *   React 19 lacks: `antd-compat/react19-render.ts` renders with `createRoot` instead.
 * - antd's Layout imports Sider only to compare children with it: `antd-compat/no-sider.ts`.
 */
const REDIRECTED_IMPORTS = [
  { importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/, source: 'rc-field-form', target: 'rc-field-form/es/FormContext' },
  { importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]config-provider[\\/]UnstableContext\.js$/, source: 'rc-util/es/React/render', target: own('src/web/antd-compat/react19-render.ts') },
  { importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]layout[\\/]hooks[\\/]useHasSider\.js$/, source: '../Sider', target: own('src/web/antd-compat/no-sider.ts') },
];

function redirectImports(): Plugin {
  return {
    name: 'switchyard-redirect-imports',
    enforce: 'pre',
    resolveId(source, importer, options) {
      const rule = REDIRECTED_IMPORTS.find((r) => r.source === source && importer && r.importer.test(importer));
      return rule ? this.resolve(rule.target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

/**
 * A package's index that re-exports all its components: importing one component through it
 * puts every component in the module graph, so a walk of the graph stops there (whatever the
 * sign-in page takes through one is in the frame's chunk already, or imported directly).
 */
const BARREL = /[\\/]node_modules[\\/](antd[\\/]es|@ant-design[\\/]icons[\\/]es)[\\/]index\.js$/;

type ModuleGraph = Pick<Rolldown.ChunkingContext, 'getModuleInfo'>;

/** Every module `from` imports statically, directly or not, barrels aside. */
function staticImports(graph: ModuleGraph, from: string): Set<string> {
  const found = new Set<string>();
  const visit = (id: string) => {
    if (found.has(id) || BARREL.test(id)) return;
    found.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) visit(next);
  };
  visit(from);
  return found;
}

/**
 * A chunk group's `name` for rolldown's `codeSplitting.groups`: the modules that `entries`
 * import statically, directly or not (barrels aside), are the group's (`chunkName`), unless a
 * group of higher priority took them first.
 */
function importedBy(chunkName: string, entries: string[]) {
  const found = new WeakMap<ModuleGraph, Set<string>>();
  return (id: string, graph: ModuleGraph): string | null => {
    let modules = found.get(graph);
    if (!modules) found.set(graph, (modules = new Set(entries.flatMap((entry) => [...staticImports(graph, own(entry))]))));
    return modules.has(id) ? chunkName : null;
  };
}

/** The modules behind `SIGNED_IN_CHUNKS` (src/web/chunks.ts): the signed-in side's code. */
const SIGNED_IN_MODULES = ['src/web/signed-in-routes.tsx', 'src/web/refine-outlet.tsx', 'src/web/crud/resource-screen.tsx', 'src/web/layout/side-nav.tsx', 'src/web/layout/signed-in-menu.tsx'];

export default defineConfig({
  plugins: [react(), redirectImports(), antdStaticStyles(), precompress(), prerenderLogin([redirectImports()])],
  publicDir: 'src/web/public',
  build: {
    outDir: 'dist/web',
    assetsDir: 'assets',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // Keeps every module's own (or its package's `sideEffects`) answer, except for
        // SIDE_EFFECT_FREE, which are dropped when nothing uses them.
        moduleSideEffects: (id: string) => (SIDE_EFFECT_FREE.test(id) ? false : undefined),
      },
      output: {
        codeSplitting: {
          // Everything the entry imports (the console's frame) in one chunk; the sign-in page
          // with what it adds in a second; what the first request of a list needs in a third
          // (small, so that request leaves while the next one downloads); the signed-in side
          // (its routes, refine, the resource screens and the frame's signed-in parts, with
          // what they import) in a fourth. Not the dozens of shared pieces automatic
          // splitting cuts them into: each is a request with its own headers (about 1 KB with
          // the security headers), compressed apart, and the browser fetches six at a time,
          // so /channel's list request waited behind ~60 of them. Screens sharing a piece of
          // a group load it from there; the rest keep automatic splitting.
          // The first two take only what their pages import beyond the entry's chunk; the
          // last two take their modules' dependencies too (rolldown's default), which keeps
          // the chunks free of import cycles: modules the signed-in side reaches through
          // antd's index would otherwise land in chunks that import the group back.
          groups: [
            { name: 'console', tags: ['$initial'], priority: 4, includeDependenciesRecursively: false },
            { name: importedBy('login', ['src/web/pages/account/login-page.tsx']), debugName: 'login', priority: 3, includeDependenciesRecursively: false },
            { name: importedBy('first-list', ['src/web/crud/first-list.ts']), debugName: 'first-list', priority: 2 },
            { name: importedBy('signed-in', SIGNED_IN_MODULES), debugName: 'signed-in', priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/v1': server,
      '/pg': server,
    },
  },
});
