/**
 * Cancels one upstream call (client gone, inactivity, RELAY_TIMEOUT). Not an AbortController:
 * a call has exactly one thing to cancel, the request in flight, so the pool binds it here
 * directly; EventTarget's listener bookkeeping (add on every request, remove on every answer)
 * showed in the relay's profile. An abort before the request was bound cancels it at once.
 */
export class UpstreamAbort {
  aborted = false;
  /** Why it was aborted: the same error an AbortController gives by default. */
  reason: Error | undefined = undefined;
  #cancel: ((reason: Error) => void) | undefined;

  abort(reason: Error = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const cancel = this.#cancel;
    this.#cancel = undefined;
    cancel?.(this.reason);
  }

  /** What abort() cancels (the pool's request in flight); undefined once it is over. */
  bind(cancel: ((reason: Error) => void) | undefined): void {
    this.#cancel = cancel;
    if (cancel && this.aborted) {
      this.#cancel = undefined;
      cancel(this.reason!);
    }
  }
}
