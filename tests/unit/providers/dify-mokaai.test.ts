import { describe, expect, it } from 'vitest';
import { embeddingsInBase64 } from '../../../src/server/relay/providers/common/embedding-encoding';
import { difyProvider } from '../../../src/server/relay/providers/dify';
import { mokaaiProvider } from '../../../src/server/relay/providers/openai-compatible/families';
import { ProviderRequestError } from '../../../src/server/relay/providers/types';
import { events, jsonBody, runStream, target } from './helpers';

const dify = target({ channelType: 37, baseUrl: 'https://api.dify.ai', key: 'app-key', requestModel: 'dify', upstreamModel: 'dify' });

describe('Dify', () => {
  it('flattens the conversation into query, blocking or streaming, with the client user or a fresh one', () => {
    const req = difyProvider.buildRequest(
      'chat',
      {
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'U' },
          { role: 'assistant', content: 'A' },
        ],
        user: 'bob',
      },
      dify,
      false,
    );
    expect(req.url).toBe('https://api.dify.ai/v1/chat-messages');
    expect(req.headers.Authorization).toBe('Bearer app-key');
    expect(jsonBody(req)).toEqual({ inputs: {}, query: 'SYSTEM: \nS\nUSER: \nU\nASSISTANT: \nA\n', response_mode: 'blocking', user: 'bob', auto_generate_name: false, files: [] });
    const a = jsonBody(difyProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'x' }] }, dify, true));
    const b = jsonBody(difyProvider.buildRequest('chat', { messages: [{ role: 'user', content: 'x' }] }, dify, true));
    expect(a.response_mode).toBe('streaming');
    expect(a.user).not.toBe(b.user);
    expect(() => difyProvider.buildRequest('chat', { messages: [] }, dify, false)).toThrow(ProviderRequestError);
    expect(() => difyProvider.buildRequest('embeddings', { input: 'x' }, dify, false)).toThrow(/not supported/);
  });

  it('answers: conversation id as the id, metadata.usage as usage, {code, message, status} errors', () => {
    const parsed = difyProvider.parseResponse(
      'chat',
      { conversation_id: 'c9', answer: 'yes', metadata: { usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4, total_price: '0.1' } } },
      dify,
    );
    expect(parsed.usage).toEqual({ promptTokens: 3, completionTokens: 1 });
    expect(parsed.body).toMatchObject({ id: 'c9', choices: [{ message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' }] });
    expect(difyProvider.parseError(400, '{"code":"invalid_param","message":"bad query","status":400}')).toMatchObject({ status: 400, message: 'bad query' });
  });

  it('stream: message and agent_message text, thinking tags, message_end usage, error events', () => {
    const open = '<details style="color:gray;background-color: #f8f8f8;padding: 8px;border-radius: 4px;" open> <summary> Thinking... </summary>\n';
    const run = runStream(
      difyProvider.createStream!('chat', dify, { includeUsage: true }),
      events(
        { event: 'workflow_started', conversation_id: 'c1', data: { workflow_id: 'w' } },
        { event: 'message', conversation_id: 'c1', answer: open },
        { event: 'message', conversation_id: 'c1', answer: 'pondering' },
        { event: 'message', conversation_id: 'c1', answer: '</details>' },
        { event: 'agent_message', conversation_id: 'c1', answer: 'Done' },
        ['ping', { event: 'ping' }],
        { event: 'message_end', conversation_id: 'c1', metadata: { usage: { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 } } },
      ),
    );
    const chunks = run.json as { id: string; choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown }[];
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('<think>pondering</think>Done');
    expect(chunks.every((c) => c.id === 'c1')).toBe(true);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
    const steps = events(
      { event: 'workflow_started', conversation_id: 'c2', data: { workflow_id: 'wf7' } },
      { event: 'node_finished', conversation_id: 'c2', data: { node_type: 'llm', status: 'succeeded' } },
      { event: 'workflow_finished', conversation_id: 'c2', data: { workflow_id: 'wf7', status: 'succeeded' } },
    );
    const debug = runStream(difyProvider.createStream!('chat', dify, { includeUsage: false }), steps);
    expect((debug.json as { choices: { delta: { reasoning_content?: string } }[] }[]).map((c) => c.choices[0]!.delta.reasoning_content).join('')).toBe(
      'Workflow: wf7\nNode: llm succeeded\nWorkflow: wf7 succeeded\n',
    );
    const quiet = runStream(difyProvider.createStream!('chat', target({ ...dify, options: { ...dify.options, difyDebug: false } }), { includeUsage: false }), steps);
    expect(quiet.out).toHaveLength(0);
    const failed = runStream(difyProvider.createStream!('chat', dify, { includeUsage: false }), events({ event: 'error', status: 429, code: 'rate_limit', message: 'slow down' }));
    expect(failed.errors[0]).toEqual({ status: 429, message: 'slow down', type: 'upstream_error', code: 'rate_limit' });
  });
});

describe('MokaAI', () => {
  it('sends OpenAI embeddings to <base>/embeddings and serves nothing else', () => {
    const t = target({ channelType: 44, baseUrl: 'https://api.moka.ai', key: 'mk', requestModel: 'm3e-base', upstreamModel: 'm3e-base' });
    const req = mokaaiProvider.buildRequest('embeddings', { model: 'm3e-base', input: ['a'] }, t, false);
    expect(req.url).toBe('https://api.moka.ai/embeddings');
    expect(req.headers.Authorization).toBe('Bearer mk');
    expect([...mokaaiProvider.modes]).toEqual(['embeddings']);
  });
});

describe('embeddings in base64', () => {
  it('encodes float arrays as little-endian float32 and leaves strings alone', () => {
    const out = embeddingsInBase64({ data: [{ embedding: [1, -2.5] }, { embedding: 'AAAA' }] }) as { data: { embedding: string }[] };
    const bytes = Buffer.from(out.data[0]!.embedding, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([1, -2.5]);
    expect(out.data[1]!.embedding).toBe('AAAA');
    const untouched = { data: [{ embedding: 'AAAA' }] };
    expect(embeddingsInBase64(untouched)).toBe(untouched);
  });
});
