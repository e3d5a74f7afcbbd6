import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayError } from '../../src/server/relay/errors';
import { AhoCorasick } from '../../src/server/services/relay-guards/aho-corasick';
import { checkPromptSensitiveWords, promptTexts, SENSITIVE_WORDS_DETECTED, sensitiveWordFilter } from '../../src/server/services/relay-guards/sensitive-words';
import { openOptionsStore, type OptionsStore } from '../helpers/options-store';

describe('Aho–Corasick matcher', () => {
  it('finds any dictionary word as a plain substring, the earliest ending first', () => {
    const m = new AhoCorasick(['he', 'she', 'his', 'hers']);
    expect(m.find('ushers')).toBe('she');
    expect(m.find('ahishers')).toBe('his');
    expect(m.find('xyz')).toBeUndefined();
  });

  it('follows failure links to shorter words inside longer partial matches', () => {
    const m = new AhoCorasick(['abcd', 'bc']);
    // "abc" is a partial match of "abcd" that contains "bc".
    expect(m.find('xabcx')).toBe('bc');
    expect(new AhoCorasick(['aab']).find('aaab')).toBe('aab');
  });

  it('works on code points (emoji, CJK) and ignores empty words', () => {
    const m = new AhoCorasick(['', '敏感词', '🔥x']);
    expect(m.empty).toBe(false);
    expect(m.find('这是一个敏感词测试')).toBe('敏感词');
    expect(m.find('a🔥xb')).toBe('🔥x');
    expect(m.find('🔥')).toBeUndefined();
    expect(new AhoCorasick(['']).empty).toBe(true);
    expect(new AhoCorasick([]).find('anything')).toBeUndefined();
  });
});

describe('prompt texts per relay mode', () => {
  it('takes every text part of chat messages and skips images', () => {
    const body = {
      messages: [
        { role: 'system', content: 'sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'part one' },
            { type: 'image_url', image_url: { url: 'data:x' } },
            { type: 'text', text: 'part two' },
          ],
        },
        { role: 'assistant', content: null },
      ],
    };
    expect(promptTexts('chat', body)).toEqual(['sys', 'part one', 'part two']);
  });

  it('reads prompt / input where the reference does, and nothing for unchecked modes', () => {
    expect(promptTexts('completions', { prompt: ['a', 'b', 3] })).toEqual(['a', 'b']);
    expect(promptTexts('images', { prompt: 'draw' })).toEqual(['draw']);
    expect(promptTexts('moderations', { input: 'mod' })).toEqual(['mod']);
    expect(promptTexts('speech', { input: 'say' })).toEqual(['say']);
    expect(promptTexts('embeddings', { input: 'embed me' })).toEqual([]);
    expect(promptTexts('messages', { messages: [{ role: 'user', content: 'x' }] })).toEqual([]);
    expect(promptTexts('gemini', { systemInstruction: { parts: [{ text: 'sys' }] }, contents: [{ parts: [{ text: 'a' }, { inlineData: { data: 'AA' } }] }, { parts: [{ text: 'b' }] }] })).toEqual([
      'sys',
      'a',
      'b',
    ]);
    expect(promptTexts('gemini', { systemInstruction: 'plain', contents: 'not a list' })).toEqual(['plain']);
    expect(promptTexts('gemini-embeddings', { content: { parts: [{ text: 'e' }] } })).toEqual([]);
  });

  it('reads the instructions and input texts of a Responses request (Ours), not its tool outputs', () => {
    expect(promptTexts('responses', { instructions: 'I', input: 'plain' })).toEqual(['I', 'plain']);
    const input = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'a' },
          { type: 'input_image', image_url: 'x' },
        ],
      },
      { role: 'developer', content: 'b' },
      { type: 'function_call_output', call_id: 'c', output: 'tool text' },
    ];
    expect(promptTexts('responses', { input })).toEqual(['a', 'b']);
  });
});

describe('sensitive-word check of prompts', () => {
  let store: OptionsStore;
  const chat = (text: string) => ({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] });
  const refusal = (fn: () => void): RelayError | undefined => {
    try {
      fn();
      return undefined;
    } catch (err) {
      return err as RelayError;
    }
  };

  beforeAll(async () => {
    store = await openOptionsStore();
  });
  afterAll(async () => store?.close());

  it('refuses the default word case-insensitively with the reference 400, the word only in the log', () => {
    const ctx = { options: store.options };
    const logged: object[] = [];
    const err = refusal(() => checkPromptSensitiveWords(ctx, 'chat', chat('this has TEST_Sensitive inside'), { warn: (d) => logged.push(d) }));
    expect(err).toBeInstanceOf(RelayError);
    expect(err).toMatchObject({ status: 400, message: SENSITIVE_WORDS_DETECTED, code: 'sensitive_words_detected', type: 'new_api_error', local: true });
    expect(err!.message).not.toContain('test_sensitive');
    expect(logged).toEqual([{ sensitiveWord: 'test_sensitive', mode: 'chat' }]);
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', chat('harmless')))).toBeUndefined();
  });

  it('answers the image and speech codes, and never checks embeddings', () => {
    const ctx = { options: store.options };
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'images', { prompt: 'a test_sensitive cat' }))).toMatchObject({ code: 'invalid_image_request', status: 400 });
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'speech', { input: 'test_sensitive' }))).toMatchObject({ code: 'invalid_audio_request' });
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'embeddings', { input: 'test_sensitive' }))).toBeUndefined();
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'responses', { input: 'say test_sensitive' }))).toMatchObject({ code: 'sensitive_words_detected', status: 400 });
  });

  it('rebuilds the dictionary when SensitiveWords changes (trimmed, lower-cased, blank lines dropped)', async () => {
    const ctx = { options: store.options };
    await store.set('SensitiveWords', '  Forbidden Fruit \n\n坏词\n');
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', chat('test_sensitive')))).toBeUndefined();
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', chat('eat the FORBIDDEN fruit now')))).toMatchObject({ status: 400 });
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'completions', { prompt: '这是坏词' }))).toMatchObject({ code: 'sensitive_words_detected' });
    expect(sensitiveWordFilter(ctx).find(['nothing here', 'forbidden fruit'])).toBe('forbidden fruit');
    await store.set('SensitiveWords', '');
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', chat('forbidden fruit')))).toBeUndefined();
    await store.set('SensitiveWords', 'test_sensitive');
  });

  it('is off unless both CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled are on', async () => {
    const ctx = { options: store.options };
    const body = chat('test_sensitive');
    await store.set('CheckSensitiveOnPromptEnabled', 'false');
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', body))).toBeUndefined();
    await store.set('CheckSensitiveOnPromptEnabled', 'true');
    await store.set('CheckSensitiveEnabled', 'false');
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', body))).toBeUndefined();
    await store.set('CheckSensitiveEnabled', 'true');
    expect(refusal(() => checkPromptSensitiveWords(ctx, 'chat', body))).toMatchObject({ status: 400 });
  });
});
