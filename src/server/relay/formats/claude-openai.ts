/**
 * Claude Messages <-> OpenAI chat, both ways, in one place for the pipeline:
 *
 * - `/v1/chat/completions` on a Claude channel: the Claude provider's `chat` mode uses the
 *   OpenAI -> Claude request and Claude -> OpenAI answer/stream conversions re-exported here.
 * - `/v1/messages` on an OpenAI-shaped (or any `chat`) channel: `openaiRequestFromClaude`
 *   makes the chat body, `claudeMessageFromOpenAI` turns the parsed answer back, and
 *   `ClaudeStreamFromOpenAI` wraps the provider's chat stream converter.
 */
export { claudeRequestFromOpenAI } from '../providers/claude/chat-request';
export { openaiResponseFromClaude } from '../providers/claude/chat-response';
export { ClaudeToOpenAIStream } from '../providers/claude/chat-stream';
export { openaiRequestFromClaude } from './claude-request-to-openai';
export { claudeMessageFromOpenAI, claudeUsageBody } from './openai-response-to-claude';
export { ClaudeStreamFromOpenAI, type ClaudeStreamArgs } from './openai-stream-to-claude';
