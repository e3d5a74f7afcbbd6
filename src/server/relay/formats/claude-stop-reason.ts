/** OpenAI finish_reason -> Claude stop_reason. */
export function claudeStopReason(finishReason: unknown): string {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
