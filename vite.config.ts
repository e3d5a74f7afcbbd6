/**
 * Builds the console (src/web) into dist/web, hashed assets under dist/web/assets/ (the
 * server serves /assets/* from there and falls back to index.html for routes). In
 * development Vite proxies the API and the gateway to the server on port 3000.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  publicDir: 'src/web/public',
  build: {
    outDir: 'dist/web',
    assetsDir: 'assets',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': server,
      '/v1': server,
      '/pg': server,
    },
  },
});
