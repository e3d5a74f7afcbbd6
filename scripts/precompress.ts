/**
 * A Vite plugin that writes a Brotli (`.br`) and a gzip (`.gz`) copy next to every text asset
 * of the console's build, once, at build time, at the highest levels: the server then sends
 * the copy the browser accepts (`@fastify/static`'s `preCompressed`) without compressing
 * anything per request. A copy that would not be smaller is not written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this, headers outweigh what compression saves. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Compresses what the build wrote: `dir` when given, else the resolved `build.outDir`, so a
 * build with `--outDir` (the browser tests build into their own folder) is followed.
 */
export function precompress(dir?: string): Plugin {
  let outDir = dir ?? '';
  return {
    name: 'switchyard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = dir ?? resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of files(outDir)) {
        if (!TEXT.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
        if (br.length < body.length) writeFileSync(`${file}.br`, br);
        const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
        if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
