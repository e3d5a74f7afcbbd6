/**
 * The retry decision of the reference (docs/relay.md#retries), applied after a failed attempt that
 * sent nothing to the client yet: local errors, a forced channel and exhausted attempts stop;
 * 429, 307 and 5xx (but 504/524) try the next priority tier; 400 only on Anthropic channels;
 * 408 and 2xx stop; anything else (401, 403, 404 …) tries another channel.
 */
import { CHANNEL_TYPE } from '../../../shared/channel-types';
import { RelayError } from '../errors';

export interface RetryContext {
  /** Attempts made so far, this one included. */
  attempts: number;
  /** RetryTimes option: attempts = 1 + RetryTimes. */
  retryTimes: number;
  forcedChannel: boolean;
  channelType: number;
}

export function shouldRetry(error: RelayError, at: RetryContext): boolean {
  if (error.local) return false;
  if (at.attempts > at.retryTimes) return false;
  if (at.forcedChannel) return false;
  const s = error.status;
  if (s === 429 || s === 307) return true;
  if (s >= 500) return s !== 504 && s !== 524;
  if (s === 400) return at.channelType === CHANNEL_TYPE.anthropic;
  if (s === 408) return false;
  if (s >= 200 && s < 300) return false;
  return true;
}

export const SATURATED_MESSAGE = '当前分组上游负载已饱和，请稍后再试';

/** The error the client finally sees: a 429 becomes the reference's "saturated" message. */
export function finalError(error: RelayError): RelayError {
  if (error.status !== 429 || error.local) return error;
  return new RelayError(429, SATURATED_MESSAGE, { type: error.type, code: error.code, local: false, upstream: false, retryAfter: error.retryAfter });
}
