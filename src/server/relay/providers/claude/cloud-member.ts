/**
 * The Claude member of a cloud platform's channels (AWS Bedrock, Vertex AI): the platform
 * builds, addresses and signs the request, but the answers are Claude's own, so they are read
 * as on Claude channels: `/v1/messages` callers get them passed through, OpenAI chat callers
 * converted.
 */
import { assertModeIn } from '../common/modes';
import type { Provider, RelayMode } from '../types';
import { openaiResponseFromClaude } from './chat-response';
import { ClaudeToOpenAIStream } from './chat-stream';
import { ClaudePassThroughStream, parseNativeResponse } from './messages';

export const CLAUDE_CLOUD_MODES: ReadonlySet<RelayMode> = new Set(['chat', 'messages']);

/** `where` names the channels in the refusal of another mode ("… is not supported by <where>"). */
export function claudeCloudAnswers(where: string): Pick<Provider, 'modes' | 'parseResponse' | 'createStream'> {
  return {
    modes: CLAUDE_CLOUD_MODES,
    parseResponse: (mode, json) => (mode === 'messages' ? parseNativeResponse(json) : openaiResponseFromClaude(json)),
    createStream(mode, target, client) {
      assertModeIn(CLAUDE_CLOUD_MODES, mode, where);
      return mode === 'messages' ? new ClaudePassThroughStream() : new ClaudeToOpenAIStream(target.upstreamModel, client.includeUsage);
    },
  };
}
