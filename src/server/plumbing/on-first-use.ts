/**
 * Packages loaded the first time a request needs them, not at start.
 *
 * Every module loaded stays in the heap for the life of the process (its source text, its
 * bytecode, its objects): about 5 MB for Redis, mail, SOCKS, WebSocket, CSV, JWT and AWS
 * signing together. Most nodes never use most of them (a node without Redis, a gateway
 * with no Bedrock, Xunfei or proxied channel), so they are loaded on demand and a node pays
 * only for what it uses. `import type` stays at the top of the modules that use them, so
 * types are unchanged.
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** Memoises `load`: it runs on the first call only; later calls get its first result. */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded = false;
  let value: T;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value;
  };
}

/** A CommonJS package (or one that also ships CommonJS), loaded synchronously on first use. */
export function packageOnFirstUse<T>(id: string): () => T {
  return onFirstUse(() => requireHere(id) as T);
}
