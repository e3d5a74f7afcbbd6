/**
 * Cancels one upstream call (client gone, inactivity, RELAY_TIMEOUT). An EventEmitter rather
 * than an AbortController: undici takes either as `signal`, and EventTarget's listener
 * bookkeeping (add on every request, remove on every answer) shows up in the relay's profile.
 */
import { EventEmitter } from 'node:events';

export class UpstreamAbort extends EventEmitter {
  aborted = false;
  /** Why it was aborted: the same error an AbortController gives by default. */
  reason: unknown = undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    this.emit('abort');
  }
}
