/**
 * Builds the console (src/web) into dist/web, hashed assets under dist/web/assets/ (the
 * server serves /assets/* from there and falls back to index.html for routes). In
 * development Vite proxies the API and the gateway to the server on port 3000.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress';

const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

/**
 * CommonJS packages that refine imports but the console never calls: papaparse (refine's CSV
 * import and export) and error-stack-parser with stackframe (refine's devtools). They declare
 * no `sideEffects`, so the bundler keeps them, unused, in the signed-in screens' chunk. None
 * has side effects: they only build their exports (papaparse sets `onmessage` solely inside
 * the worker it spawns itself).
 */
const PURE_COMMONJS = /[\\/]node_modules[\\/](papaparse|error-stack-parser|stackframe)[\\/]/;

export default defineConfig({
  plugins: [react(), precompress()],
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
