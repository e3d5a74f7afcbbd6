import { describe, expect, it } from 'vitest';
import { SseLineTooLongError, SseParser } from '../../../src/server/relay/stream/sse-parser';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds the text in pieces of `size` bytes and collects every event. */
function parse(text: string, size = Infinity, options = {}) {
  const parser = new SseParser(options);
  const data = bytes(text);
  const out = [];
  for (let i = 0; i < data.length; i += Number.isFinite(size) ? size : data.length) {
    out.push(...parser.push(data.subarray(i, Math.min(data.length, i + (Number.isFinite(size) ? size : data.length)))));
  }
  out.push(...parser.end());
  return out;
}

describe('SSE parser', () => {
  const stream = 'event: message_start\ndata: {"a":1}\n\n: ping\n\ndata: {"b":"é漢"}\n\ndata: [DONE]\n\n';
  const expected = [{ event: 'message_start', data: '{"a":1}' }, { data: '{"b":"é漢"}' }, { data: '[DONE]' }];

  it('reads events, fields and comments', () => {
    expect(parse(stream)).toEqual(expected);
  });

  it('gives the same events whatever the chunking, even one byte at a time (split lines and UTF-8)', () => {
    for (const size of [1, 2, 3, 5, 7, 16]) expect(parse(stream, size)).toEqual(expected);
  });

  it('accepts CRLF and lone CR line ends, also a CRLF split between chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    for (const size of [1, 2, 3, 4, 1000]) expect(parse(crlf, size)).toEqual(expected);
    expect(parse(stream.replace(/\n/g, '\r'), 3)).toEqual(expected);
  });

  it('joins multi-line data with newlines and strips only one space after the colon', () => {
    expect(parse('data:a\ndata:  b\ndata\n\n')).toEqual([{ data: 'a\n b\n' }]);
  });

  it('ignores id/retry/unknown fields and events without data, and strips a BOM', () => {
    expect(parse('\uFEFFid: 1\nretry: 10\nfoo: bar\n\nevent: ping\n\ndata: x\n\n')).toEqual([{ data: 'x' }]);
  });

  it('flushes an event that ends without a blank line or newline', () => {
    expect(parse('data: {"last":true}')).toEqual([{ data: '{"last":true}' }]);
    expect(parse('event: e\ndata: 1\n')).toEqual([{ event: 'e', data: '1' }]);
  });

  it('can dispatch every data line as its own event (upstreams that forget blank lines)', () => {
    expect(parse('data: 1\ndata: 2\n\ndata: [DONE]\n', Infinity, { dataLinePerEvent: true })).toEqual([{ data: '1' }, { data: '2' }, { data: '[DONE]' }]);
  });

  it('refuses a line longer than the limit, whole or growing across chunks', () => {
    expect(() => parse(`data: ${'x'.repeat(100)}\n`, Infinity, { maxLineBytes: 50 })).toThrow(SseLineTooLongError);
    expect(() => parse(`data: ${'x'.repeat(100)}\n`, 10, { maxLineBytes: 50 })).toThrow(SseLineTooLongError);
    expect(parse(`data: ${'x'.repeat(40)}\n\n`, 7, { maxLineBytes: 50 })).toEqual([{ data: 'x'.repeat(40) }]);
  });

  it('tells when a chunk was nothing but whole plain events, as the relay would write them', () => {
    const plain = (...chunks: string[]) => {
      const parser = new SseParser();
      return chunks.map((c) => {
        parser.push(bytes(c));
        return parser.lastChunkWasPlainEvents;
      });
    };
    expect(plain('data: {"a":1}\n\ndata: é漢\n\n', 'data: [DONE]\n\n')).toEqual([true, true]);
    // Split events: neither half is whole; the next whole chunk is plain again.
    expect(plain('data: {"a"', ':1}\n\n', 'data: x\n\n')).toEqual([false, false, true]);
    expect(plain('data: x\n', '\ndata: y\n\n')).toEqual([false, false]);
    // Anything the relay would not write itself.
    expect(plain(': ping\n\ndata: x\n\n')).toEqual([false]);
    expect(plain('event: e\ndata: x\n\n')).toEqual([false]);
    expect(plain('data:x\n\n')).toEqual([false]);
    expect(plain('data: x\r\n\r\n')).toEqual([false]);
    expect(plain('data: x\r\r')).toEqual([false]);
    expect(plain('data: x\n\n\n')).toEqual([false]);
    expect(plain('data: a\ndata: b\n\n')).toEqual([false]);
    expect(plain('id: 1\ndata: x\n\n')).toEqual([false]);
    expect(plain('\uFEFFdata: x\n\n', 'data: y\n\n')).toEqual([false, true]);
    expect(plain('\n')).toEqual([false]);
    // A UTF-8 character split across chunks: the second chunk starts inside it.
    const parser = new SseParser();
    const both = bytes('data: é\n\ndata: é\n\n');
    parser.push(both.subarray(0, 16));
    expect(parser.lastChunkWasPlainEvents).toBe(false);
    expect(parser.push(both.subarray(16))).toEqual([{ data: 'é' }]);
    expect(parser.lastChunkWasPlainEvents).toBe(false);
  });

  it('does not depend on the caller keeping its chunk buffers', () => {
    const parser = new SseParser();
    const buffer = new Uint8Array(64);
    buffer.set(bytes('data: hel'));
    expect(parser.push(buffer.subarray(0, 9))).toEqual([]);
    buffer.fill(0x41);
    buffer.set(bytes('lo\n\n'));
    expect(parser.push(buffer.subarray(0, 4))).toEqual([{ data: 'hello' }]);
  });

  it('hands each chunk text to the caller first, saying whether its events all begin in it', () => {
    const parser = new SseParser();
    const seen: [string, boolean][] = [];
    const onText = (text: string, whole: boolean) => seen.push([text, whole]);
    expect(parser.push(Buffer.from('data: {"a":1}\n\ndata: 价格\n\n'), onText)).toEqual([{ data: '{"a":1}' }, { data: '价格' }]);
    // A chunk that leaves an event pending: the next one continues it, so it is not whole.
    expect(parser.push(Buffer.from('data: {"par'), onText)).toEqual([]);
    expect(parser.push(Buffer.from('tial":1}\n\n'), onText)).toEqual([{ data: '{"partial":1}' }]);
    expect(parser.push(Buffer.from('data: 2\n\n'), onText)).toEqual([{ data: '2' }]);
    expect(seen).toEqual([
      ['data: {"a":1}\n\ndata: 价格\n\n', true],
      ['data: {"par', true],
      ['tial":1}\n\n', false],
      ['data: 2\n\n', true],
    ]);
  });
});
