import { describe, expect, it } from 'vitest';
import { formatClipDuration, parseTaskResult } from './task-result';

const clip = (over: Record<string, unknown> = {}) => ({
  id: 'c1',
  audio_url: 'https://cdn1.suno.ai/c1.mp3',
  video_url: 'https://cdn1.suno.ai/c1.mp4',
  image_url: 'https://cdn2.suno.ai/image_c1.jpeg',
  title: 'My song',
  status: 'complete',
  metadata: { duration: 120.5, tags: 'pop' },
  ...over,
});

describe('music task result', () => {
  it('reads the clips of a MUSIC task', () => {
    const data = JSON.stringify([clip(), clip({ id: 'c2', title: 'Second', audio_url: 'https://cdn1.suno.ai/c2.mp3', image_url: '', metadata: {} })]);
    expect(parseTaskResult(data)).toEqual({
      clips: [
        { title: 'My song', audioUrl: 'https://cdn1.suno.ai/c1.mp3', imageUrl: 'https://cdn2.suno.ai/image_c1.jpeg', duration: 120.5 },
        { title: 'Second', audioUrl: 'https://cdn1.suno.ai/c2.mp3' },
      ],
    });
  });

  it('reads the lyrics of a LYRICS task', () => {
    const data = JSON.stringify({ id: 'l1', status: 'complete', title: 'Rain', text: '[Verse]\n<b>not html</b>' });
    expect(parseTaskResult(data)).toEqual({ clips: [], lyrics: { title: 'Rain', text: '[Verse]\n<b>not html</b>' } });
    expect(parseTaskResult(JSON.stringify({ id: 'l1', status: 'running', text: '' }))).toEqual({ clips: [] });
    expect(parseTaskResult(JSON.stringify({ text: 'la la', title: 5 }))).toEqual({ clips: [], lyrics: { title: '', text: 'la la' } });
  });

  it('is empty for empty, unreadable or other data, and never throws', () => {
    for (const data of ['', '   ', 'not json', '[{', 'null', '42', '"text"', 'true', '{}', '[]', '[null, 1, "x", []]', '{"foo":1}', null, undefined, 7, {}]) {
      expect(parseTaskResult(data), String(data)).toEqual({ clips: [] });
    }
  });

  it('drops URLs that are not http(s)', () => {
    const data = JSON.stringify([
      clip({ audio_url: 'javascript:alert(1)', image_url: 'data:image/png;base64,AAAA' }),
      clip({ title: '', audio_url: 'java\nscript:alert(1)' }),
      clip({ title: 'relative', audio_url: '/x.mp3', image_url: '//evil.example/x.jpeg' }),
    ]);
    expect(parseTaskResult(data)).toEqual({
      clips: [
        { title: 'My song', duration: 120.5 },
        { title: 'relative', duration: 120.5 },
      ],
    });
  });

  it('tolerates odd clip fields and wrapped lists', () => {
    expect(parseTaskResult(JSON.stringify([{ title: '  Spaced  ', audio_url: 'https://a.example/1.mp3', metadata: { duration: '61' } }]))).toEqual({
      clips: [{ title: 'Spaced', audioUrl: 'https://a.example/1.mp3', duration: 61 }],
    });
    expect(
      parseTaskResult(
        JSON.stringify([
          { title: 7, audio_url: 9, metadata: { duration: 'x' } },
          { id: 'only-id', status: 'queued' },
        ]),
      ),
    ).toEqual({ clips: [] });
    expect(parseTaskResult(JSON.stringify({ clips: [clip()] })).clips).toHaveLength(1);
    expect(parseTaskResult(JSON.stringify({ data: [clip()] })).clips).toHaveLength(1);
    expect(parseTaskResult(JSON.stringify(clip())).clips).toHaveLength(1);
    expect(parseTaskResult([clip()]).clips).toHaveLength(1);
  });

  it('formats clip durations as minutes and seconds', () => {
    expect(formatClipDuration(120.5)).toBe('2:01');
    expect(formatClipDuration(59.4)).toBe('0:59');
    expect(formatClipDuration(3605)).toBe('60:05');
  });
});
