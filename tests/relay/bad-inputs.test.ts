/**
 * Bad relay bodies (issue #12, items 11 and 13) on every database: the relay checks the
 * types of the fields it reads before it chooses a channel, so each gets a 400 in the
 * endpoint's error shape, makes no upstream request, reserves and charges nothing and
 * writes no log. Both ways into the relay are walked: the direct path (a plain POST) and
 * Fastify's (a query string sends the request there).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const good = { role: 'user', content: 'hi' };

/** Chat bodies the relay must refuse: [what, raw JSON text]. */
const BAD_CHAT: Array<[string, string]> = [
  ['messages as a string', JSON.stringify({ model: 'gpt-4o-mini', messages: 'hi' })],
  ['messages as an object', JSON.stringify({ model: 'gpt-4o-mini', messages: good })],
  ['messages as a number', JSON.stringify({ model: 'gpt-4o-mini', messages: 5 })],
  ['a message that is a string', JSON.stringify({ model: 'gpt-4o-mini', messages: ['hi'] })],
  ['a message that is null', JSON.stringify({ model: 'gpt-4o-mini', messages: [good, null] })],
  ['a message that is a list', JSON.stringify({ model: 'gpt-4o-mini', messages: [[good]] })],
  ['content as an object', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: { text: 'hi' } }] })],
  ['content as a number', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 5 }] })],
  ['content as a boolean', JSON.stringify({ model: 'gpt-4o-mini', messages: [good, { role: 'user', content: true }] })],
  ['a content part that is a string', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: ['hi'] }] })],
  ['role as a number', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 5, content: 'hi' }] })],
  ['stream as "yes"', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], stream: 'yes' })],
  ['stream as 1', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], stream: 1 })],
  ['max_tokens as "10"', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], max_tokens: '10' })],
  ['max_tokens 1e309', `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":1e309}`],
  ['max_tokens -1', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], max_tokens: -1 })],
  ['max_tokens 10.5', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], max_tokens: 10.5 })],
  ['max_completion_tokens as "10"', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], max_completion_tokens: '10' })],
  ['max_completion_tokens 1e309', `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":1e309}`],
  ['max_completion_tokens 2^53', JSON.stringify({ model: 'gpt-4o-mini', messages: [good], max_completion_tokens: 2 ** 53 })],
  ['model as a number', JSON.stringify({ model: 123, messages: [good] })],
  ['model as a list', JSON.stringify({ model: ['gpt-4o-mini'], messages: [good] })],
  ['model as an object', JSON.stringify({ model: { id: 'gpt-4o-mini' }, messages: [good] })],
  ['model as blanks', JSON.stringify({ model: '   ', messages: [good] })],
  ['model of 300 characters', JSON.stringify({ model: 'g'.repeat(300), messages: [good] })],
  ['model with a NUL', JSON.stringify({ model: 'gpt-4o-mini\u0000', messages: [good] })],
  ['model with a lone surrogate', JSON.stringify({ model: 'gpt-\ud800', messages: [good] })],
];

const BAD_COMPLETIONS: Array<[string, string]> = [
  ['stream as "yes"', JSON.stringify({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream: 'yes' })],
  ['max_tokens as "10"', JSON.stringify({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', max_tokens: '10' })],
  ['max_tokens 1e309', '{"model":"gpt-3.5-turbo-instruct","prompt":"x","max_tokens":1e309}'],
  ['model as a number', JSON.stringify({ model: 5, prompt: 'x' })],
];

const BAD_EMBEDDINGS: Array<[string, string]> = [
  ['model as a number', JSON.stringify({ model: 5, input: 'x' })],
  ['no model', JSON.stringify({ input: 'x' })],
  ['model of 300 characters', JSON.stringify({ model: 'e'.repeat(300), input: 'x' })],
];

const BAD_MESSAGES: Array<[string, string]> = [
  ['messages as a string', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: 'hi' })],
  ['content as an object', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: { text: 'hi' } }] })],
  ['stream as "yes"', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [good], stream: 'yes' })],
  ['max_tokens as "10"', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: '10', messages: [good] })],
  ['max_tokens 1e309', '{"model":"claude-3-haiku-20240307","max_tokens":1e309,"messages":[{"role":"user","content":"hi"}]}'],
  ['model as a number', JSON.stringify({ model: 7, max_tokens: 10, messages: [good] })],
  ['model of 300 characters', JSON.stringify({ model: 'c'.repeat(300), max_tokens: 10, messages: [good] })],
  ['no model', JSON.stringify({ max_tokens: 10, messages: [good] })],
  ['max_tokens -1', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: -1, messages: [good] })],
  ['max_tokens 10.5', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10.5, messages: [good] })],
  ['no messages', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10 })],
  ['a message that is a string', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: ['hi'] })],
  ['role "tool"', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'tool', content: 'hi' }] })],
  ['no role', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ content: 'hi' }] })],
  ['content as a number', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: 5 }] })],
  ['a block that is a string', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: ['hi'] }] })],
  ['an unknown block type', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] })],
  ['a block without a type', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })],
  ['a text block with a number', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] })],
  ['an image without a source', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image' }] }] })],
  [
    'a tool_use whose input is text',
    JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [good, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }] }),
  ],
  ['a tool_result without tool_use_id', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] })],
  [
    'a tool_result with is_error "yes"',
    JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', is_error: 'yes' }] }] }),
  ],
  ['system as a number', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, system: 5, messages: [good] })],
  ['tools as an object', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, tools: { name: 'f' }, messages: [good] })],
  ['tool_choice as text', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, tool_choice: 'auto', messages: [good] })],
  ['thinking without a budget', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, thinking: { type: 'enabled' }, messages: [good] })],
  ['stop_sequences as text', JSON.stringify({ model: 'claude-3-haiku-20240307', max_tokens: 10, stop_sequences: 'END', messages: [good] })],
];

/** count_tokens takes a Messages body without sampling fields: the same checks apply. */
const BAD_COUNT_TOKENS: Array<[string, string]> = [
  ['no model', JSON.stringify({ messages: [good] })],
  ['model as a number', JSON.stringify({ model: 7, messages: [good] })],
  ['messages as a string', JSON.stringify({ model: 'claude-3-haiku-20240307', messages: 'hi' })],
  ['an unknown block type', JSON.stringify({ model: 'claude-3-haiku-20240307', messages: [{ role: 'user', content: [{ type: 'video' }] }] })],
  ['not JSON', '{"model":'],
];

describeEachDialect('bad relay bodies', (dialect) => {
  let fake: FakeOpenAI;
  let b: Bench;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: fake.url, models: 'gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,claude-3-haiku-20240307' });
  });
  afterAll(async () => {
    await b?.close();
    await fake?.close();
  });

  async function post(path: string, body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${b.s.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token.apiKey}`, 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text
    }
    return { status: res.status, body: parsed };
  }

  /** Sends each body on both paths into the relay; each must be a 400 that costs nothing. */
  async function expectRefusedFree(path: string, bodies: Array<[string, string]>, shape: 'openai' | 'claude') {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const upstreamBefore = fake.requests.length;
    for (const [what, body] of bodies) {
      for (const url of [path, `${path}?via=fastify`]) {
        const res = await post(url, body);
        expect(res.status, `${url} ${what}: ${JSON.stringify(res.body)}`).toBe(400);
        if (shape === 'openai') {
          expect(res.body.error, `${url} ${what}`).toMatchObject({ message: expect.any(String), type: expect.any(String) });
        } else {
          expect(res.body, `${url} ${what}`).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
        }
        expect(fake.requests.length, `${url} ${what}: no upstream request`).toBe(upstreamBefore);
      }
    }
    await b.flush();
    expect(await balances(b.s, b.user.id, b.token.id)).toEqual(before);
  }

  it('refuses chat bodies with fields of the wrong type before any channel is chosen', async () => {
    await expectRefusedFree('/v1/chat/completions', BAD_CHAT, 'openai');
  });

  it('refuses completions and embeddings bodies with fields of the wrong type', async () => {
    await expectRefusedFree('/v1/completions', BAD_COMPLETIONS, 'openai');
    await expectRefusedFree('/v1/embeddings', BAD_EMBEDDINGS, 'openai');
    // A model from the path is held to the same rules.
    await expectRefusedFree('/v1/engines/text-embedding%00/embeddings', [['path model with a NUL', JSON.stringify({ input: 'x' })]], 'openai');
  });

  it("refuses Claude messages bodies with fields of the wrong type in Claude's error shape", async () => {
    await expectRefusedFree('/v1/messages', BAD_MESSAGES, 'claude');
    await expectRefusedFree('/v1/messages/count_tokens', BAD_COUNT_TOKENS, 'claude');
  });

  it('still serves well-typed bodies (null content, content parts, stream false, max_tokens) and bills them', async () => {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const upstreamBefore = fake.requests.length;
    const bodies = [
      { model: 'gpt-4o-mini', messages: [good], stream: false, max_tokens: 10, max_completion_tokens: null },
      { model: ' gpt-4o-mini ', messages: [{ role: 'system', content: [{ type: 'text', text: 'be brief' }] }, { role: 'assistant', content: null, tool_calls: [] }, good], stream: null },
    ];
    for (const body of bodies) {
      fake.script({ text: 'ok', usage: { prompt: 3, completion: 2 } });
      const res = await post('/v1/chat/completions', JSON.stringify(body));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(fake.requests.length).toBe(upstreamBefore + bodies.length);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.logCount).toBe(before.logCount + bodies.length);
    expect(after.quota).toBeLessThan(before.quota);
    expect(after.openCount).toBe(0);
  });
});
