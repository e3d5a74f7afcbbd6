/**
 * Builds the console (src/web) into dist/web, hashed assets under dist/web/assets/ (the
 * server serves /assets/* from there and falls back to index.html for routes). In
 * development Vite proxies the API and the gateway to the server on port 3000.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { precompress } from './scripts/precompress.ts';

const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

/**
 * CommonJS packages that refine imports but the console never calls: papaparse (refine's CSV
 * import and export) and error-stack-parser with stackframe (refine's devtools). They declare
 * no `sideEffects`, so the bundler keeps them, unused, in the signed-in screens' chunk. None
 * has side effects: they only build their exports (papaparse sets `onmessage` solely inside
 * the worker it spawns itself).
 */
const PURE_COMMONJS = /[\\/]node_modules[\\/](papaparse|error-stack-parser|stackframe)[\\/]/;

/**
 * Imports pointed at the one module they use, for the first page's size, keeping the very
 * module (so the very state) the original import gives. antd's form context module (which
 * every input and ConfigProvider load) takes only `FormProvider` from rc-field-form, but
 * through the package's index, whose top level hangs Field, List, useForm ... onto the Form
 * component: so the bundler keeps all of rc-field-form and its validator on the first page,
 * sign-in included, which has no antd Form. The module that defines `FormProvider` is the one
 * the index re-exports; the rest loads with the first screen that has a real Form.
 */
const REDIRECTED_IMPORTS = [{ importer: /[\\/]node_modules[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/, source: 'rc-field-form', target: 'rc-field-form/es/FormContext' }];

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

const LOGIN_PAGE = fileURLToPath(new URL('src/web/pages/account/login-page.tsx', import.meta.url));

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

const loginModules = new WeakMap<ModuleGraph, Set<string>>();

/** The sign-in page's chunk: the page and what it imports beyond the frame's chunk. */
function loginChunk(id: string, graph: ModuleGraph): string | null {
  let modules = loginModules.get(graph);
  if (!modules) loginModules.set(graph, (modules = staticImports(graph, LOGIN_PAGE)));
  return modules.has(id) ? 'login' : null;
}

export default defineConfig({
  plugins: [react(), redirectImports(), precompress()],
  publicDir: 'src/web/public',
  build: {
    outDir: 'dist/web',
    assetsDir: 'assets',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // Keeps every module's own (or its package's `sideEffects`) answer, except for
        // PURE_COMMONJS, which are dropped when nothing uses them.
        moduleSideEffects: (id: string) => (PURE_COMMONJS.test(id) ? false : undefined),
      },
      output: {
        codeSplitting: {
          // Everything the entry imports (the console's frame) in one chunk, and the sign-in
          // page with what it adds in another, rather than the dozens of shared pieces
          // automatic splitting cuts them into, each a request with its own headers (about
          // 1 KB with the security headers) and compressed apart. Screens sharing a piece of
          // the sign-in page's load it from there; the rest keep automatic splitting.
          groups: [
            { name: 'console', tags: ['$initial'], priority: 2, includeDependenciesRecursively: false },
            { name: loginChunk, debugName: 'login', priority: 1, includeDependenciesRecursively: false },
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
