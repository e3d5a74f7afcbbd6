// Bundles the server into dist/server/main.js (dependencies stay in node_modules). The
// benchmark imports `buildServer` to bundle the same way into a folder of its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * esbuild writes strings as ASCII (its default `charset`) but keeps comments as written, and
 * one arrow or dash in a comment makes V8 hold the whole bundle's source as a two-byte string:
 * twice its size in the heap for the life of the process (1.7 MB instead of 0.85). Outside
 * strings only comments can hold such characters, so each UTF-16 unit above Latin-1 becomes
 * `?` (one unit for one unit: the source map's columns stay right).
 */
function latin1Comments(file) {
  const text = readFileSync(file, 'utf8');
  const narrowed = text.replace(/[\u0100-\uffff]/g, '?');
  if (narrowed !== text) writeFileSync(file, narrowed);
}

/** `sourceRoot`: a checkout to bundle instead of this one (the A/B benchmark's base revision). */
export async function buildServer(outfile = 'dist/server/main.js', sourceRoot = root) {
  const out = fileURLToPath(new URL(outfile, `file://${root}`));
  await build({
    entryPoints: [join(sourceRoot, 'src/server/main.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    charset: 'ascii',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  latin1Comments(out);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
