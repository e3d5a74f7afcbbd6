/**
 * Claude Messages -> OpenAI chat and back, in one place for the pipeline: `/v1/messages` on an
 * OpenAI-shaped (or any `chat`) channel. `openaiRequestFromClaude` makes the chat body,
 * `claudeMessageFromOpenAI` turns the parsed answer back, and `ClaudeStreamFromOpenAI` wraps
 * the provider's chat stream converter. (The other way, `/v1/chat/completions` on a Claude
 * channel, is the Claude provider's own `chat` mode: providers/claude/chat-*.ts.)
 */
export { openaiRequestFromClaude } from './claude-request-to-openai';
export { claudeMessageFromOpenAI, claudeUsageBody } from './openai-response-to-claude';
export { ClaudeStreamFromOpenAI } from './openai-stream-to-claude';
