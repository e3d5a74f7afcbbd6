/**
 * Which URLs from a record the console may put in `src` or `href`: an upstream's answer is
 * not trusted, so anything but http(s) (`javascript:`, `data:`, `vbscript:` ...) is dropped.
 * Pure, so each rule is unit-tested.
 */

/** A base that only serves to resolve relative paths; never shown or requested. */
const SAME_ORIGIN_BASE = 'http://same-origin.invalid';

/** An absolute http(s) URL (normalised), else undefined. Relative paths are refused. */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An image source: an absolute http(s) URL, or a path on this console's own origin
 * (`/mj/image/<id>`, returned rooted at `/`). Protocol-relative (`//host/x`) and other
 * relative forms that leave the origin are refused, as is every other scheme.
 */
export function safeImageSrc(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const absolute = safeHttpUrl(text);
  if (absolute) return absolute;
  try {
    // Another scheme resolves to itself, `//host` and `/\host` to another origin.
    const url = new URL(text, `${SAME_ORIGIN_BASE}/`);
    if (url.origin !== SAME_ORIGIN_BASE) return undefined;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return undefined;
  }
}
