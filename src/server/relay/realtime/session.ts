/**
 * One Realtime session after both sockets are open: events pass both ways as they came (only
 * `response.done` is read, for its usage), the balance is checked after each billed response,
 * and the session is settled exactly once, whichever side ends it first.
 *
 * Money: the session holds the reservation taken when it opened. When what it has used passes
 * what it holds, it reserves more (the relay's usual reservation, refused in the usual words);
 * a refusal tells the client with an `error` event and closes the session, as the reference
 * does when the balance runs out mid-session. At the end the first reservation is settled with
 * the whole charge and the others are given back, so the net is the charge, moved once. While
 * the session runs its usage is journaled about once a second (a crash bills it at restart).
 */
import type WebSocket from 'ws';
import { usageQuota } from '../billing/formula';
import { RelayError } from '../errors';
import { delivered, type Delivered, type Ending } from '../pipeline/call';
import { estimateOf, reserve } from '../pipeline/relay';
import { journalStreamProgress, refund, settleDelivered, type Reservation } from '../pipeline/settle';
import type { RelayRuntime } from '../runtime';
import type { OpenedSession } from './open';
import { SessionUsage } from './usage';

/** A side that reads slower than the other talks pauses the talker above this many bytes waiting. */
const BUFFER_HIGH = 4 * 1024 * 1024;
/** How long a closing upstream may take before its socket is cut. */
const CLOSE_GRACE_MS = 2000;

/** Close codes of a session ended on purpose (normal closure, going away). */
const NORMAL_CLOSE: ReadonlySet<number> = new Set([1000, 1001]);

/** Close codes that may be sent on (1005, 1006 and 1015 are only ever reported, never sent). */
function sendableCode(code: number): number {
  return (code >= 1000 && code <= 1014 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999) ? code : 1000;
}

/** Sends an event on as it came; a reader that falls behind pauses the sender until it caught up. */
function forward(from: WebSocket, to: WebSocket, data: Buffer, isBinary: boolean): void {
  to.send(data, { binary: isBinary }, () => {
    if (from.isPaused && to.bufferedAmount < BUFFER_HIGH / 2) from.resume();
  });
  if (to.bufferedAmount > BUFFER_HIGH) from.pause();
}

export class RealtimeSession {
  readonly #usage = new SessionUsage();
  /** The reservations held, the first one the session opened with. */
  readonly #held: Reservation[];
  #firstResponseMs = 0;
  #ended = false;
  #toppingUp = false;
  /** Said in the consume log when the session was ended for want of quota. */
  #logExtra: string | undefined;
  #stopProgress: () => void = () => undefined;

  constructor(
    private readonly rt: RelayRuntime,
    private readonly opened: OpenedSession,
    private readonly client: WebSocket,
    private readonly onEnd: (session: RealtimeSession) => void,
  ) {
    this.#held = [opened.call.reservation!];
  }

  start(): void {
    const { client } = this;
    const { upstream, call } = this.opened;
    this.opened.ticket.finish(101);
    client.on('message', (data, isBinary) => {
      if (upstream.readyState === upstream.OPEN) forward(client, upstream, data as Buffer, isBinary);
    });
    upstream.on('message', (data, isBinary) => this.#fromUpstream(data as Buffer, isBinary));
    // Closing the socket is how a client ends a session: only an abnormal close is "gone".
    client.on('close', (code) => this.end(NORMAL_CLOSE.has(code) ? 'complete' : 'client_gone'));
    client.on('error', () => this.end('client_gone'));
    upstream.on('close', (code, reason) => this.end(NORMAL_CLOSE.has(code) ? 'complete' : 'upstream_broken', { code, reason: reason.toString('utf8') }));
    upstream.on('error', () => this.end('upstream_broken', { code: 1011, reason: 'upstream error' }));
    this.#stopProgress = journalStreamProgress(this.rt, call, () => this.#outcome('interrupted'));
    upstream.resume();
  }

  #fromUpstream(data: Buffer, isBinary: boolean): void {
    if (this.#ended) return;
    if (this.#firstResponseMs === 0) this.#firstResponseMs = Math.max(1, Date.now() - this.opened.call.startedAt);
    // Only the event that carries usage is parsed; the others pass on unread.
    if (!isBinary && data.includes('"response.done"')) {
      try {
        const event = JSON.parse(data.toString('utf8')) as { type?: unknown; response?: { usage?: null } };
        if (event.type === 'response.done' && this.#usage.add(event)) void this.#checkBalance();
      } catch {
        // not JSON: passed on as it came
      }
    }
    if (this.client.readyState === this.client.OPEN) forward(this.opened.upstream, this.client, data, isBinary);
  }

  #charge(): number {
    return this.#usage.tokens === 0 ? 0 : usageQuota(this.#usage.usage, this.opened.call.price, 'round');
  }

  /** Holds more when the session has used what it holds; ends it when the balance cannot. */
  async #checkBalance(): Promise<void> {
    if (this.#toppingUp || this.#ended) return;
    const heldSum = this.#held.reduce((sum, r) => sum + r.amount, 0);
    const charge = this.#charge();
    if (charge <= heldSum) return;
    this.#toppingUp = true;
    try {
      const more = await reserve(this.rt, this.opened.call, charge - heldSum + estimateOf(this.rt, this.opened.call));
      if (this.#ended) refund(this.rt, this.opened.call, more);
      else this.#held.push(more);
    } catch (err) {
      const message = err instanceof RelayError ? err.message : 'quota check failed';
      if (this.client.readyState === this.client.OPEN) {
        this.client.send(
          JSON.stringify({
            type: 'error',
            event_id: `event_${this.opened.call.requestId}`,
            error: { type: 'insufficient_quota', code: 'insufficient_user_quota', message, param: null, event_id: null },
          }),
        );
      }
      this.#logExtra = '额度不足，会话已关闭';
      this.end('complete', { code: 1008, reason: 'insufficient quota' });
      return;
    } finally {
      this.#toppingUp = false;
    }
    void this.#checkBalance();
  }

  #outcome(ending: Ending): Delivered {
    const usage = this.#usage.snapshot();
    return delivered(this.opened.route, { usage, usageReported: true, isStream: true, firstResponseMs: this.#firstResponseMs, ending, logExtra: this.#logExtra, fixedQuota: undefined });
  }

  /** Ends the session once: both sockets closed, the usage settled, extra holds given back. */
  end(ending: Ending, close: { code: number; reason: string } = { code: 1000, reason: '' }): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopProgress();
    const { upstream, call } = this.opened;
    if (upstream.readyState === upstream.CONNECTING || upstream.readyState === upstream.OPEN) {
      upstream.close(1000);
      setTimeout(() => upstream.terminate(), CLOSE_GRACE_MS).unref();
    }
    if (this.client.readyState === this.client.OPEN) this.client.close(sendableCode(close.code), close.reason.slice(0, 120));
    const [first, ...extra] = this.#held;
    if (this.#usage.tokens === 0) refund(this.rt, call, first!);
    else settleDelivered(this.rt, call, first!, this.#outcome(ending));
    for (const r of extra) refund(this.rt, call, r);
    this.onEnd(this);
  }
}
