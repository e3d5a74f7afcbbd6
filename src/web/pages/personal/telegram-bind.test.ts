import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindTelegram } from './telegram-bind';

const FIELDS = { id: 42, first_name: 'Pat', auth_date: 1700000000, hash: 'abc' };

function reply(init: { type?: ResponseType; status: number; body?: unknown }) {
  return { type: init.type ?? 'basic', status: init.status, json: async () => init.body } as Response;
}

afterEach(() => vi.unstubAllGlobals());

describe('Telegram binding through the widget callback', () => {
  it('sends the signed fields with the session cookie and takes the redirect as the bind', async () => {
    const fetch = vi.fn(async () => reply({ type: 'opaqueredirect', status: 0 }));
    vi.stubGlobal('fetch', fetch);
    await expect(bindTelegram(FIELDS, 'x')).resolves.toBeUndefined();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/oauth/telegram/bind?id=42&first_name=Pat&auth_date=1700000000&hash=abc');
    expect(init).toMatchObject({ credentials: 'same-origin', redirect: 'manual' });
  });

  it("shows the server's refusal, never a fake success", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply({ status: 200, body: { success: false, message: '该 Telegram 账户已被绑定' } })),
    );
    await expect(bindTelegram(FIELDS, 'x')).rejects.toThrow('该 Telegram 账户已被绑定');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply({ status: 500, body: undefined })),
    );
    await expect(bindTelegram(FIELDS, 'fallback')).rejects.toThrow('fallback');
  });
});
