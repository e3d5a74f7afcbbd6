/**
 * Cancels one upstream call (client gone, inactivity, RELAY_TIMEOUT). Not an AbortController:
 * a call has exactly one thing to cancel, the request in flight, so the pool binds it here
 * directly; EventTarget's listener bookkeeping (add on every request, remove on every answer)
 * showed in the relay's profile. An abort before the request was bound cancels it at once.
 */
export class UpstreamAbort {
  /** Why it was aborted (undefined until then). */
  #reason: Error | undefined;
  #cancel: ((reason: Error) => void) | undefined;

  abort(reason: Error = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#reason) return;
    this.#reason = reason;
    const cancel = this.#cancel;
    this.#cancel = undefined;
    cancel?.(reason);
  }

  /** Why the call was aborted, or undefined while it was not. */
  get reason(): Error | undefined {
    return this.#reason;
  }

  /** What abort() cancels (the pool's request in flight); undefined once it is over. */
  bind(cancel: ((reason: Error) => void) | undefined): void {
    this.#cancel = cancel;
    if (cancel && this.#reason) {
      this.#cancel = undefined;
      cancel(this.#reason);
    }
  }
}

/** The reason of an abort because the client left: not the upstream's fault, nothing to bill. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
  }
}
