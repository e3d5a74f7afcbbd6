/** The circuit breaker on its own: opens after repeated failures, heals by itself through one probe. */
import { describe, expect, it } from 'vitest';
import { CircuitBreaker, FAILURE_THRESHOLD } from '../../src/server/relay/channels/breaker';

describe('circuit breaker', () => {
  it('opens after the threshold, lets one probe through after the cool-down, closes on success', () => {
    const breaker = new CircuitBreaker();
    const t0 = 1_000_000;
    for (let i = 0; i < FAILURE_THRESHOLD - 1; i++) breaker.failed(7, undefined, t0);
    expect(breaker.allows(7, t0)).toBe(true);
    breaker.failed(7, undefined, t0);
    expect(breaker.allows(7, t0 + 1000)).toBe(false);
    expect(breaker.allows(7, t0 + 31_000)).toBe(true);
    breaker.picked(7, t0 + 31_000);
    // Only one probe at a time.
    expect(breaker.allows(7, t0 + 31_001)).toBe(false);
    breaker.succeeded(7);
    expect(breaker.allows(7, t0 + 31_002)).toBe(true);
    expect(breaker.isOpen(7, t0 + 31_002)).toBe(false);
  });

  it('reopens for twice as long when the probe fails', () => {
    const breaker = new CircuitBreaker();
    const t0 = 5_000_000;
    for (let i = 0; i < FAILURE_THRESHOLD; i++) breaker.failed(1, undefined, t0);
    breaker.picked(1, t0 + 30_000);
    breaker.failed(1, undefined, t0 + 30_000);
    expect(breaker.allows(1, t0 + 30_000 + 59_000)).toBe(false);
    expect(breaker.allows(1, t0 + 30_000 + 61_000)).toBe(true);
  });

  it('honours Retry-After at once', () => {
    const breaker = new CircuitBreaker();
    breaker.failed(3, 10, 0);
    expect(breaker.allows(3, 9_000)).toBe(false);
    expect(breaker.allows(3, 10_001)).toBe(true);
  });
});
