/**
 * GET requests started ahead of the screen that will make them: the entry knows, from the
 * address alone, the first request of the list it opens on, and starts it while the screen's
 * scripts load and render, instead of after the screen's first render (`crud/first-list.ts`).
 * The transport then answers that request, once, with the response already under way.
 *
 * Only a head start: a request that does not come (another address, a changed default), or
 * comes late, is sent again as usual; an answer is handed out once, so a later reload of the
 * same list asks the server.
 */

/** An answer older than this is not handed out (the screen asked for something else, or much later). */
const FRESH_MS = 10_000;

const started = new Map<string, { at: number; answer: Promise<Response> }>();

/** Starts `url` (same origin, absolute or not) with `send`, unless it is already under way. */
export function prefetch(url: string, send: (url: string) => Promise<Response>): void {
  const key = new URL(url, window.location.origin).href;
  if (started.has(key)) return;
  const answer = send(key);
  // Nobody may ever ask for it: a failure is the transport's to report when someone does.
  answer.catch(() => undefined);
  started.set(key, { at: Date.now(), answer });
}

/** The answer prefetched for a GET of `url`, taken (once), if it is still fresh. */
export function takePrefetched(input: RequestInfo | URL, init?: RequestInit): Promise<Response> | undefined {
  if (started.size === 0) return undefined;
  const request = input instanceof Request ? input : undefined;
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  if (method !== 'GET') return undefined;
  const key = new URL(request ? request.url : String(input), window.location.origin).href;
  const entry = started.get(key);
  if (!entry) return undefined;
  started.delete(key);
  return Date.now() - entry.at <= FRESH_MS ? entry.answer : undefined;
}
