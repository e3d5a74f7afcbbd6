/**
 * Circuit breaker per channel, in this process: a channel that fails several times in a row
 * (network, 5xx, 429, key problems) is left out of selection for a cool-down, then one probe
 * request is let through; a success closes it, a failure opens it again for twice as long.
 * An upstream's Retry-After opens it at once for that long. This sits beside the reference's
 * automatic disable (which needs an admin or a passing test to undo): the breaker heals itself.
 */

/** Consecutive failures that open the circuit. */
export const FAILURE_THRESHOLD = 5;
const BASE_COOL_DOWN_MS = 30_000;
const MAX_COOL_DOWN_MS = 5 * 60_000;
/** A probe that never reported back (its request vanished) stops blocking after this. */
const PROBE_TIMEOUT_MS = 60_000;

interface State {
  failures: number;
  openUntil: number;
  coolDown: number;
  probeSince: number;
}

export class CircuitBreaker {
  readonly #states = new Map<number, State>();

  /** Whether selection may pick this channel now (closed, or open with its cool-down over and no probe out). */
  allows(channelId: number, now = Date.now()): boolean {
    const s = this.#states.get(channelId);
    if (!s || s.openUntil === 0) return true;
    if (now < s.openUntil) return false;
    return s.probeSince === 0 || now - s.probeSince > PROBE_TIMEOUT_MS;
  }

  /** Selection picked the channel: if its cool-down is over, this request is the probe. */
  picked(channelId: number, now = Date.now()): void {
    const s = this.#states.get(channelId);
    if (s && s.openUntil !== 0 && now >= s.openUntil) s.probeSince = now;
  }

  succeeded(channelId: number): void {
    this.#states.delete(channelId);
  }

  /** A failure that is the channel's fault; `retryAfterSeconds` opens the circuit for that long at once. */
  failed(channelId: number, retryAfterSeconds?: number, now = Date.now()): void {
    let s = this.#states.get(channelId);
    if (!s) {
      s = { failures: 0, openUntil: 0, coolDown: 0, probeSince: 0 };
      this.#states.set(channelId, s);
    }
    s.failures++;
    const wasProbe = s.probeSince !== 0;
    s.probeSince = 0;
    if (wasProbe || s.failures >= FAILURE_THRESHOLD) {
      s.coolDown = s.coolDown === 0 ? BASE_COOL_DOWN_MS : Math.min(MAX_COOL_DOWN_MS, s.coolDown * 2);
      s.openUntil = now + s.coolDown;
    }
    if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) {
      s.openUntil = Math.max(s.openUntil, now + Math.min(retryAfterSeconds * 1000, MAX_COOL_DOWN_MS));
    }
  }

  /** Whether the circuit of this channel is open now (for tests and the console). */
  isOpen(channelId: number, now = Date.now()): boolean {
    const s = this.#states.get(channelId);
    return !!s && s.openUntil !== 0 && now < s.openUntil;
  }

  /** Consecutive failures that count against the channel now (0: healthy; the metrics' scrape). */
  failures(channelId: number): number {
    return this.#states.get(channelId)?.failures ?? 0;
  }

  forget(channelId: number): void {
    this.#states.delete(channelId);
  }
}
