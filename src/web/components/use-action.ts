/**
 * A button's async action: marks it busy, runs it, toasts the outcome and clears the busy
 * flag whatever happened (docs/console.md#replies-and-errors). Checks that should stop
 * before anything is sent stay with the caller, ahead of `run`.
 */
import { useState } from 'react';
import { useApp } from '../state/feedback-app';

export interface ActionMessages<R> {
  /** Success toast, from the action's result; nothing when absent or empty. */
  success?: string | ((result: R) => string | undefined);
  /** Error toast; the error's own message (the server's words) when absent. */
  error?: (err: Error) => string;
}

export function useAction<A extends unknown[], R>(work: (...args: A) => Promise<R>, messages: ActionMessages<R> = {}): [run: (...args: A) => Promise<void>, busy: boolean] {
  const { message } = useApp();
  const [busy, setBusy] = useState(false);
  const run = async (...args: A) => {
    setBusy(true);
    try {
      const result = await work(...args);
      const text = typeof messages.success === 'function' ? messages.success(result) : messages.success;
      if (text) void message.success(text);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      void message.error(messages.error ? messages.error(error) : error.message);
    } finally {
      setBusy(false);
    }
  };
  return [run, busy];
}
