/**
 * CSP hash sources (`'sha256-…'`) of the inline scripts of a page the build wrote: the
 * prerendered sign-in page carries its early script inline (scripts/prerender-login.ts), and
 * the policy, which allows no inline script otherwise, allows exactly these.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** A script element without attributes (a `src`, a type) and its text. */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
}

/**
 * The hash sources of the page in `file` as it is now: read again whenever the file changed
 * (its size or modification time), so a console rebuilt under a running server sends the new
 * page with the hash of its own script, not the old one (which would block it). A page that
 * is gone has none. One `stat` per call: it runs only for the page's own address.
 */
export function pageScriptHashes(file: string): () => readonly string[] {
  let seen = '';
  let hashes: readonly string[] = [];
  return () => {
    let version: string;
    try {
      const st = statSync(file);
      version = `${st.size}:${st.mtimeMs}`;
    } catch {
      return [];
    }
    if (version !== seen) {
      hashes = inlineScriptHashes(readFileSync(file, 'utf8'));
      seen = version;
    }
    return hashes;
  };
}
