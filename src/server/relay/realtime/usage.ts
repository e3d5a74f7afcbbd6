/**
 * A Realtime session's usage: the sum of the `usage` of every `response.done` the upstream
 * sent (input and output tokens with their text, audio and cached parts), in the relay's
 * normalised shape, so the price formula bills text and audio apart with their ratios.
 */
import type { Usage } from '../providers/types';

interface TokenDetails {
  text_tokens?: unknown;
  audio_tokens?: unknown;
  cached_tokens?: unknown;
  cached_tokens_details?: { text_tokens?: unknown };
}

interface RealtimeUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_token_details?: TokenDetails;
  output_token_details?: TokenDetails;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export class SessionUsage {
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, audioPromptTokens: 0, audioCompletionTokens: 0 };
  /** `response.done` events that carried usage. */
  responses = 0;

  /** Adds a `response.done` event's usage; answers whether it had any. */
  add(event: { response?: { usage?: RealtimeUsage | null } }): boolean {
    const u = event.response?.usage;
    if (!u || typeof u !== 'object') return false;
    const inDetails = u.input_token_details ?? {};
    const outDetails = u.output_token_details ?? {};
    const input = count(u.input_tokens);
    const output = count(u.output_tokens);
    const audioIn = Math.min(input, count(inDetails.audio_tokens));
    const audioOut = Math.min(output, count(outDetails.audio_tokens));
    // Only cached text is priced at the cache ratio: the formula takes cached tokens out of the
    // text part (audio is priced by its own ratio), so cached audio must not be taken twice.
    const cachedText = inDetails.cached_tokens_details ? count(inDetails.cached_tokens_details.text_tokens) : count(inDetails.cached_tokens);
    const target = this.usage;
    target.promptTokens += input;
    target.completionTokens += output;
    target.audioPromptTokens! += audioIn;
    target.audioCompletionTokens! += audioOut;
    target.cachedTokens! += Math.min(cachedText, input - audioIn);
    this.responses++;
    return true;
  }

  get tokens(): number {
    return this.usage.promptTokens + this.usage.completionTokens;
  }

  /** A copy (the settlement keeps it while the session may still add). */
  snapshot(): Usage {
    return { ...this.usage };
  }
}
