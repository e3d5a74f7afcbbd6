/**
 * The console page the build prerenders (scripts/prerender-login.ts) and the file it writes
 * it to, beside index.html: the console renders it at `path`, the server sends `file` for it.
 */
export const PRERENDERED_PAGE = { path: '/login', file: 'login.html' } as const;
