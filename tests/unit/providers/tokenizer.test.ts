import { describe, expect, it } from 'vitest';
import { countChatPromptTokens, countClaudePromptTokens, countInputTokens, countRerankTokens, countSpeechInput, countTokens, encodingForModel, imageTokens } from '../../../src/server/relay/tokenizer';

/** A PNG header of the given size (the tokenizer only reads the header). */
function pngDataUrl(width: number, height: number): string {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'ascii');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return `data:image/png;base64,${header.toString('base64')}`;
}

/** A JPEG whose frame header follows an APP0 segment. */
function jpegDataUrl(width: number, height: number): string {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return `data:image/jpeg;base64,${Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]).toString('base64')}`;
}

describe('tokenizer', () => {
  it('picks o200k for the GPT-4o generation and o-series, cl100k for the rest', () => {
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest', 'o1-mini', 'o3-mini-high', 'gpt-4.1-nano']) expect(encodingForModel(m)).toBe('o200k_base');
    for (const m of ['gpt-4', 'gpt-3.5-turbo', 'claude-3-5-sonnet-20241022', 'gemini-2.0-flash', 'text-embedding-3-small']) expect(encodingForModel(m)).toBe('cl100k_base');
  });

  it('counts known strings like tiktoken', () => {
    expect(countTokens('hello world', 'gpt-4o')).toBe(2);
    expect(countTokens('hello world', 'gpt-4')).toBe(2);
    // The encodings differ on CJK text.
    expect(countTokens('你好，世界', 'gpt-4o')).toBe(3);
    expect(countTokens('你好，世界', 'gpt-4')).toBe(6);
    expect(countTokens('', 'gpt-4')).toBe(0);
  });

  it('counts special-token text as text instead of refusing it', () => {
    expect(countTokens('a <|endoftext|> b', 'gpt-4o')).toBeGreaterThan(3);
  });

  it('counts a chat prompt: 3 per message + role + content (+ name), 3 for priming', () => {
    const body = { messages: [{ role: 'user', content: 'hello world' }] };
    expect(countChatPromptTokens(body, 'gpt-4o')).toBe(3 + 3 + 1 + 2);
    const named = { messages: [{ role: 'user', name: 'bob', content: 'hello world' }] };
    expect(countChatPromptTokens(named, 'gpt-4o')).toBe(9 + 1 + countTokens('bob', 'gpt-4o'));
    const parts = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello world' },
            { type: 'input_audio', input_audio: {} },
            { type: 'file', file: {} },
          ],
        },
      ],
    };
    expect(countChatPromptTokens(parts, 'gpt-4o')).toBe(9 + 100 + 5000);
  });

  it('counts every tool (the reference counted only the last)', () => {
    const tool = (name: string) => ({ type: 'function', function: { name, description: 'd', parameters: { type: 'object' } } });
    const one = countChatPromptTokens({ messages: [], tools: [tool('a')] }, 'gpt-4o');
    const two = countChatPromptTokens({ messages: [], tools: [tool('a'), tool('a')] }, 'gpt-4o');
    expect(one).toBe(3 + 8 + 1 + 1 + countTokens('{"type":"object"}', 'gpt-4o'));
    expect(two - 3).toBe(2 * (one - 3));
  });

  it('prices images by the reference rules', () => {
    expect(imageTokens({ url: 'https://x/y.png', detail: 'low' }, 'gpt-4o')).toBe(85);
    expect(imageTokens({ url: 'https://x/y.png' }, 'glm-4v')).toBe(1047);
    expect(imageTokens({ url: 'https://x/y.png' }, 'gpt-4o', { getMediaTokenNotStream: false })).toBe(255);
    expect(imageTokens({ url: 'https://x/y.png' }, 'gpt-4o', { getMediaTokenNotStream: false, stream: true })).toBe(765);
    expect(imageTokens({ url: 'https://x/y.png' }, 'gpt-4o', { getMediaToken: false })).toBe(255);
    expect(imageTokens({ url: 'https://x/y.png' }, 'gpt-4o-mini', { channelType: 14 })).toBe(3 * 2833);
    // 1×1: one tile.
    expect(imageTokens({ url: pngDataUrl(1, 1) }, 'gpt-4o')).toBe(170 + 85);
    // 2048×4096: short side 768, long 1536: 2 × 3 tiles.
    expect(imageTokens(pngDataUrl(2048, 4096), 'gpt-4o')).toBe(6 * 170 + 85);
    expect(imageTokens(jpegDataUrl(600, 400), 'gpt-4o')).toBe(2 * 170 + 85);
    expect(imageTokens(jpegDataUrl(600, 400), 'gpt-4o-mini')).toBe(2 * 5667 + 2833);
    // Remote or unreadable images are estimated as 1024×1024 (768×768: 2 × 2 tiles).
    expect(imageTokens('https://x/y.png', 'gpt-4o')).toBe(4 * 170 + 85);
    expect(imageTokens('data:image/png;base64,AAAA', 'gpt-4o')).toBe(4 * 170 + 85);
  });

  it('counts inputs: text, text lists, token ids, anything else as JSON', () => {
    expect(countInputTokens('hello world', 'gpt-4')).toBe(2);
    expect(countInputTokens(['hello', ' world'], 'gpt-4')).toBe(2);
    expect(countInputTokens([1, 2, 3], 'gpt-4')).toBe(3);
    expect(countInputTokens([[1, 2], [3]], 'gpt-4')).toBe(3);
    expect(countInputTokens(undefined, 'gpt-4')).toBe(0);
    expect(countRerankTokens('hello', ['world', { text: 'hello world' }], 'gpt-4')).toBe(1 + 1 + 2);
  });

  it('counts TTS input in characters for tts models, tokens for others', () => {
    expect(countSpeechInput('héllo 🌍', 'tts-1')).toBe(7);
    expect(countSpeechInput('hello world', 'gpt-4o-mini-tts')).toBe(2);
  });

  it('counts a Claude-format prompt', () => {
    const body = {
      system: [{ type: 'text', text: 'hello world' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello world' },
            { type: 'image', source: {} },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'get', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
      ],
      tools: [{ name: 'get', description: 'd', input_schema: { type: 'object' } }],
    };
    const t = (s: string) => countTokens(s, 'claude-3-5-sonnet-20241022');
    const expected = t('user') + 2 + 1000 + 2 + t('assistant') + t('get') + t('{"a":1}') + 2 + t('user') + t('"ok"') + 2 + 2 + t('get') + t('d') + 3 + t('{"type":"object"}');
    expect(countClaudePromptTokens(body, 'claude-3-5-sonnet-20241022')).toBe(expected);
  });
});
