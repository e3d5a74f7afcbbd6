/**
 * DeepSeek (type 43): OpenAI-shaped chat with `reasoning_content` (forwarded as is and counted as
 * output); completions (FIM) live under `/beta`; cache hits arrive as `prompt_cache_hit_tokens`,
 * which the shared usage reader maps to cached tokens.
 */
import { createOpenAICompatible } from '../openai-compatible/factory';

export const deepseekProvider = createOpenAICompatible({
  id: 'deepseek',
  paths: { chat: '/v1/chat/completions', completions: '/beta/completions' },
  // DeepSeek documents stream_options.include_usage.
  streamUsage: true,
});
