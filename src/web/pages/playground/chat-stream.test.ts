import { describe, expect, it } from 'vitest';
import { applyChunk, buildRequest, createSseParser, errorTextOf, readChunk, type ChatMessage } from './chat-stream';

const chunk = (text: string) => JSON.stringify({ choices: [{ delta: { content: text } }] });

describe('chat stream', () => {
  it('parses events split across chunks', () => {
    const got: string[] = [];
    const feed = createSseParser((d) => got.push(d));
    feed(`data: ${chunk('Hel')}\n\ndata: ${chunk('lo')}`);
    feed('\n\n: keep-alive\n\ndata: [DONE]\n\n');
    expect(got).toEqual([chunk('Hel'), chunk('lo'), '[DONE]']);
  });

  it('moves the assistant message through its states', () => {
    let m: ChatMessage = { id: 'a', role: 'assistant', content: '', createAt: 0, status: 'loading' };
    m = applyChunk(m, readChunk(chunk('Hi')));
    expect(m).toMatchObject({ content: 'Hi', status: 'incomplete' });
    m = applyChunk(m, readChunk('[DONE]'));
    expect(m.status).toBe('complete');
    const failed = applyChunk({ ...m, status: 'incomplete' }, readChunk(JSON.stringify({ error: { message: 'quota exceeded' } })));
    expect(failed).toMatchObject({ content: 'Hi\n\nquota exceeded', status: 'error' });
    expect(readChunk('{not json')).toEqual({ kind: 'unparsable' });
  });

  it('builds the request body', () => {
    const history: ChatMessage[] = [
      { id: '1', role: 'user', content: 'q1', createAt: 0 },
      { id: '2', role: 'assistant', content: 'bad', createAt: 0, status: 'error' },
      { id: '3', role: 'user', content: 'q2', createAt: 0 },
    ];
    const body = buildRequest({ model: 'gpt-4o-mini', group: 'default', temperature: 0.7, max_tokens: 0, system: 'Be brief.' }, history);
    expect(body).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'q1' },
        { role: 'user', content: 'q2' },
      ],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      temperature: 0.7,
    });
    expect(buildRequest({ model: 'm', group: '', temperature: 1, max_tokens: 100, system: '' }, []).max_tokens).toBe(100);
  });

  it('reads error replies', () => {
    expect(errorTextOf(401, JSON.stringify({ error: { message: 'invalid token' } }))).toBe('invalid token');
    expect(errorTextOf(502, '<html>bad gateway</html>')).toBe('<html>bad gateway</html>');
    expect(errorTextOf(500, '')).toBe('HTTP 500');
  });
});
