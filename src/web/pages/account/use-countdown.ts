/** A button lock that counts down (the 30 second resend and reset locks, docs/console.md#account-pages). */
import { useEffect, useState } from 'react';

export const LOCK_SECONDS = 30;

export function useCountdown(seconds = LOCK_SECONDS): { remaining: number; start: () => void } {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((r) => r - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);
  return { remaining, start: () => setRemaining(seconds) };
}
