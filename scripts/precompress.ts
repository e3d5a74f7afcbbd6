/**
 * A Vite plugin that writes a Brotli (`.br`) and a gzip (`.gz`) copy next to every text asset
 * of the console's build, once, at build time, at the highest levels: the server then sends
 * the copy the browser accepts (`@fastify/static`'s `preCompressed`) without compressing
 * anything per request. A copy that would not be smaller is not written.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

/** Writes `file`'s Brotli and gzip copies beside it (those smaller than the file). */
export function compressCopies(file: string): void {
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) return;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  if (br.length < body.length) writeFileSync(`${file}.br`, br);
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
}

/** `outDir`: the folder to compress; by default the build's own (Vite's `build.outDir`). */
export function precompress(outDir?: string): Plugin {
  let dir = outDir;
  return {
    name: 'switchyard-precompress',
    apply: 'build',
    configResolved(config) {
      dir ??= resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // A build that failed before writing anything leaves nothing to compress.
      if (!dir || !existsSync(dir)) return;
      for (const file of files(dir)) if (TEXT.test(file)) compressCopies(file);
    },
  };
}
