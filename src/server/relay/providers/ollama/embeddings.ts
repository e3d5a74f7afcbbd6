/** Ollama's native `/api/embed` (docs/relay.md#other-families), converted from and to OpenAI's embeddings shape. */
import { errorFromBody } from '../common/errors';
import { type JsonObject, arr, compact, isRecord, num, str } from '../common/json';
import type { CustomEndpoint } from '../openai-compatible/config';

export const ollamaEmbeddings: CustomEndpoint = {
  request(body, model) {
    return compact({ model, input: body.input, dimensions: body.dimensions, truncate: body.truncate, keep_alive: body.keep_alive, options: body.options });
  },
  response(json) {
    // Ollama reports errors as `{error: "text"}`.
    if (isRecord(json) && json.error !== undefined) return { body: json, error: errorFromBody(500, json) };
    const answer: JsonObject = isRecord(json) ? json : {};
    const promptTokens = num(answer.prompt_eval_count);
    const body = {
      object: 'list',
      data: arr(answer.embeddings).map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: str(answer.model) ?? '',
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    };
    return { body, usage: promptTokens ? { promptTokens, completionTokens: 0 } : undefined };
  },
};
