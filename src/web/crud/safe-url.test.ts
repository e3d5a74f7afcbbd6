import { describe, expect, it } from 'vitest';
import { safeHttpUrl, safeImageSrc } from './safe-url';

describe('safe URLs', () => {
  it('keeps absolute http(s) URLs only', () => {
    expect(safeHttpUrl('https://cdn1.suno.ai/x.mp3')).toBe('https://cdn1.suno.ai/x.mp3');
    expect(safeHttpUrl('  http://127.0.0.1:3000/mj/image/1 ')).toBe('http://127.0.0.1:3000/mj/image/1');
    // The hostile inputs, kept as one list on one line.
    // prettier-ignore
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'java\nscript:alert(1)', ' \tjavascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'ftp://host/x', 'file:///etc/passwd', '/mj/image/1', '//evil.example/x', 'x.mp3', '', '   ', null, undefined, 42, {}]) {
      expect(safeHttpUrl(bad), String(bad)).toBeUndefined();
    }
  });

  it('takes image sources that are http(s) or paths on this origin', () => {
    expect(safeImageSrc('https://cdn.discordapp.com/a/b.png')).toBe('https://cdn.discordapp.com/a/b.png');
    expect(safeImageSrc('http://192.168.1.2:3000/mj/image/123')).toBe('http://192.168.1.2:3000/mj/image/123');
    expect(safeImageSrc('/mj/image/123')).toBe('/mj/image/123');
    expect(safeImageSrc('/mj/image/123?size=s#x')).toBe('/mj/image/123?size=s#x');
    expect(safeImageSrc('mj/image/123')).toBe('/mj/image/123');
    expect(safeImageSrc('/mj/../mj/image/1')).toBe('/mj/image/1');
    // The hostile inputs, kept as one list on one line.
    // prettier-ignore
    for (const bad of ['javascript:alert(1)', 'java\tscript:alert(1)', 'data:image/png;base64,AAAA', 'blob:https://x/y', '//evil.example/x.png', '/\\evil.example/x.png', '\\\\evil.example/x.png', 'ftp://host/x.png', '', null, undefined, 1]) {
      expect(safeImageSrc(bad), String(bad)).toBeUndefined();
    }
  });
});
