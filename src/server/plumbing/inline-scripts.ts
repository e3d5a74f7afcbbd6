/**
 * CSP hash sources (`'sha256-…'`) of the inline scripts of a page the build wrote: the
 * prerendered sign-in page carries its early script inline (scripts/prerender-login.ts), and
 * the policy, which allows no inline script otherwise, allows exactly these.
 */
import { createHash } from 'node:crypto';

/** A script element without attributes (a `src`, a type) and its text. */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
}
