/**
 * Rounds over every channel (tests, balance refreshes), manual or scheduled: at most one
 * round of a kind per app at a time, each channel of a round handled by one of a few
 * workers, and every round stopped (its calls in flight cancelled) when the app closes.
 */
import type { AppContext } from '../../context';

export type RoundKind = 'tests' | 'balances';

/** Channels handled at once in a round: enough to finish big lists, few enough for any upstream. */
export const ROUND_CONCURRENCY = 4;

interface Round {
  done: Promise<void>;
  stop: AbortController;
}

const rounds = new WeakMap<AppContext, Map<RoundKind, Round>>();
/** Apps that are closing: a round asked for now ends at once, doing nothing. */
const closing = new WeakSet<AppContext>();

function roundsOf(ctx: AppContext): Map<RoundKind, Round> {
  let map = rounds.get(ctx);
  if (!map) {
    map = new Map();
    rounds.set(ctx, map);
  }
  return map;
}

/**
 * Starts a round of `kind` unless one is under way (then answers undefined). `body` gets the
 * signal that the app's close raises; the answer settles when the round is over (never rejects:
 * `body` handles its own failures).
 */
export function startRound(ctx: AppContext, kind: RoundKind, body: (signal: AbortSignal) => Promise<void>): Promise<void> | undefined {
  if (closing.has(ctx)) return Promise.resolve();
  const map = roundsOf(ctx);
  if (map.has(kind)) return undefined;
  const stop = new AbortController();
  const done = body(stop.signal).finally(() => map.delete(kind));
  map.set(kind, { done, stop });
  return done;
}

/** The round of `kind` under way, if any. */
export function roundUnderWay(ctx: AppContext, kind: RoundKind): Promise<void> | undefined {
  return rounds.get(ctx)?.get(kind)?.done;
}

/** Cancels every round of the app and waits until they ended (the app is closing). */
export async function stopRounds(ctx: AppContext): Promise<void> {
  closing.add(ctx);
  const map = rounds.get(ctx);
  if (!map) return;
  const under = [...map.values()];
  for (const round of under) round.stop.abort(new DOMException('The server is shutting down', 'AbortError'));
  await Promise.all(under.map((r) => r.done.catch(() => undefined)));
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Runs `each` over `items` with at most `concurrency` at once, a worker resting `pauseMs` after
 * each of its items (POLLING_INTERVAL); stops taking items once `signal` is raised.
 */
export async function forEachBounded<T>(items: readonly T[], concurrency: number, each: (item: T) => Promise<void>, pauseMs: number, signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (!signal.aborted && next < items.length) {
      const item = items[next++]!;
      await each(item);
      if (pauseMs > 0 && next < items.length) await pause(pauseMs, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
