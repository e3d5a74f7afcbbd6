import { describe, expect, it, vi } from 'vitest';
import { attachmentName, downloadFile, formatBytes } from './download';

const translate = (key: string, options?: Record<string, unknown>) => (options?.ns === 'server' ? `[${key}]` : key);

/** A reply whose body arrives in the given chunks. */
function streamed(chunks: string[], headers: Record<string, string>, status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(body, { status, headers });
}

describe('file downloads', () => {
  it('sends the filters and New-Api-User, and reports the bytes as they arrive', async () => {
    const fetch = vi.fn(async () => streamed(['ID,时间\n', '1,x\n', '2,y\n'], { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="logs-20261125T010203.csv"' }));
    const progress: number[] = [];
    const file = await downloadFile({ fetch, userId: () => 7, translate, onUnauthorized: vi.fn() }, '/api/log/export', { type: 2, username: 'a b' }, (n) => progress.push(n), 'logs.csv');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/log/export?type=2&username=a+b');
    expect(init.headers).toEqual({ 'New-Api-User': '7' });
    expect(progress).toEqual([10, 14, 18]);
    expect(file.fileName).toBe('logs-20261125T010203.csv');
    expect(file.bytes).toBe(18);
    expect(await file.blob.text()).toBe('ID,时间\n1,x\n2,y\n');
  });

  it('throws the message of a refusal, and signs out on 401', async () => {
    const refused = vi.fn(async () => new Response(JSON.stringify({ success: false, message: '无权进行此操作，权限不足' }), { headers: { 'content-type': 'application/json' } }));
    const onUnauthorized = vi.fn();
    await expect(downloadFile({ fetch: refused, userId: () => 1, translate, onUnauthorized }, '/api/log/export', {}, vi.fn(), 'x.csv')).rejects.toThrow('[无权进行此操作，权限不足]');
    const expired = vi.fn(async () => new Response(JSON.stringify({ success: false, message: 'x' }), { status: 401, headers: { 'content-type': 'application/json' } }));
    await expect(downloadFile({ fetch: expired, userId: () => 1, translate, onUnauthorized }, '/api/log/export', {}, vi.fn(), 'x.csv')).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('names the file from the reply or falls back, and formats sizes', () => {
    expect(attachmentName(null, 'logs.csv')).toBe('logs.csv');
    expect(attachmentName('attachment; filename="a.csv"', 'logs.csv')).toBe('a.csv');
    expect([formatBytes(512), formatBytes(3482), formatBytes(12 * 1024 * 1024)]).toEqual(['512 B', '3.4 KB', '12.0 MB']);
  });
});
