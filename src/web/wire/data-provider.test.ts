import { describe, expect, it, vi } from 'vitest';
import type { ResourceDefinition } from '../../shared/resources/definition';
import { createApi } from './api';
import { createDataProvider } from './data-provider';
import { buildUrl, collectionOf, filtersToQuery, joinPath, listUrl, toListResult, toPageQuery } from './mappings';
import { ApiError, unwrap, type WireDeps } from './replies';

const translate = (key: string, options?: Record<string, unknown>) => (options?.ns === 'server' ? `[${key}]` : options?.message ? `${key}:${String(options.message)}` : key);

const users = {
  name: 'users',
  api: '/api/user/',
  search: { path: 'search', fields: [] },
  endpoints: { manage: { method: 'post', path: 'manage' }, test: { method: 'get', path: 'test/:id', query: { model: 'x' } } },
} as unknown as ResourceDefinition;

const ORIGIN = 'http://console.test';

/** One request as it left either client: the pages' fetch (a path) or axios (a `Request`). */
interface Call {
  url: string;
  method: string;
  headers: Headers;
  body?: string;
}

async function seen(input: string | URL | Request, init?: RequestInit): Promise<Call> {
  if (typeof input === 'string') {
    return { url: input, method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body === undefined ? undefined : String(init.body) };
  }
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  expect(url.origin).toBe(ORIGIN);
  const body = await request.text();
  return { url: url.pathname + url.search, method: request.method, headers: request.headers, body: body || undefined };
}

function wire(reply: { status?: number; body?: unknown; raw?: string }, userId?: number) {
  const calls: Call[] = [];
  const onUnauthorized = vi.fn();
  const deps: WireDeps = {
    fetch: async (input, init) => {
      calls.push(await seen(input, init));
      const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
      return new Response(text, { status: reply.status ?? 200 });
    },
    origin: ORIGIN,
    userId: () => userId,
    translate,
    onUnauthorized,
    resources: [users],
  };
  return { deps, calls, onUnauthorized, api: createApi(deps), provider: createDataProvider(deps) };
}

const ok = (data: unknown) => ({ success: true, message: '', data });

describe('paging', () => {
  it('maps refine pages (from 1) to p (from 0) and page_size', () => {
    expect(toPageQuery({ currentPage: 1, pageSize: 20 })).toEqual({ p: 0, page_size: 20 });
    expect(toPageQuery({ currentPage: 3, pageSize: 50 })).toEqual({ p: 2, page_size: 50 });
    expect(toPageQuery(undefined)).toEqual({ p: 0, page_size: 10 });
  });

  it('reads {items, total} and bare arrays', () => {
    expect(toListResult({ items: [{ id: 1 }], total: 42, page: 0, page_size: 10 })).toEqual({ data: [{ id: 1 }], total: 42 });
    expect(toListResult([{ id: 1 }, { id: 2 }])).toEqual({ data: [{ id: 1 }, { id: 2 }], total: 2 });
    expect(toListResult({ items: null })).toEqual({ data: [], total: 0 });
  });
});

describe('search', () => {
  it('drops blank values and joins lists', () => {
    const query = filtersToQuery([
      { field: 'keyword', operator: 'eq', value: 'ann' },
      { field: 'group', operator: 'eq', value: '' },
      { field: 'models', operator: 'in', value: ['a', 'b'] },
      { field: 'none', operator: 'eq', value: undefined },
    ]);
    expect(query).toEqual({ keyword: 'ann', models: 'a,b' });
  });

  it('uses the search route only when a value is set', () => {
    expect(listUrl(users, { currentPage: 1, pageSize: 10 }, [])).toBe('/api/user/?p=0&page_size=10');
    expect(listUrl(users, { currentPage: 1, pageSize: 10 }, [{ field: 'group', operator: 'eq', value: '' }])).toBe('/api/user/?p=0&page_size=10');
    expect(listUrl(users, { currentPage: 2, pageSize: 20 }, [{ field: 'keyword', operator: 'eq', value: 'a b' }])).toBe('/api/user/search?p=1&page_size=20&keyword=a+b');
  });

  it('keeps filters on the list route for resources without a search route', () => {
    const logs = { api: '/api/log/' } as ResourceDefinition;
    expect(listUrl(logs, { currentPage: 1, pageSize: 10 }, [{ field: 'type', operator: 'eq', value: 2 }])).toBe('/api/log/?p=0&page_size=10&type=2');
    // The list's switches follow the page and the search.
    expect(listUrl(users, { currentPage: 1, pageSize: 10 }, [], { id_sort: 'true' })).toBe('/api/user/?p=0&page_size=10&id_sort=true');
  });

  it('joins paths and query strings', () => {
    expect(joinPath('/api/user/', 'manage')).toBe('/api/user/manage');
    expect(joinPath('/api/channel', 'test/:id', 7)).toBe('/api/channel/test/7');
    expect(buildUrl('/api/x?a=1', { b: 2, c: undefined })).toBe('/api/x?a=1&b=2');
    expect(collectionOf('/api/user/')).toBe('user');
    expect(collectionOf('/api/task/self/')).toBe('task/self');
    expect(() => collectionOf('/v1/models')).toThrow('/api/');
  });
});

describe('unwrap', () => {
  it('returns data of a successful envelope', () => {
    expect(unwrap(200, ok({ a: 1 }), translate)).toEqual({ a: 1 });
  });

  it('turns success:false into an error carrying the (translated) message', () => {
    expect(() => unwrap(200, { success: false, message: '用户名已存在，或已注销' }, translate)).toThrow('[用户名已存在，或已注销]');
    try {
      unwrap(200, { success: false, message: 'bad', errors: { name: 'x' } }, translate);
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).errors).toEqual({ name: 'x' });
      expect((err as ApiError).statusCode).toBe(200);
    }
  });

  it.each([
    [401, 'errors.expired'],
    [429, 'errors.tooManyRequests'],
    [500, 'errors.serverError'],
    [405, 'errors.demoSite'],
  ])('gives HTTP %i the documented text', (status, key) => {
    expect(() => unwrap(status, undefined, translate)).toThrow(key);
    expect(() => unwrap(status, { success: false, message: 'raw' }, translate)).toThrow(key);
  });

  it('prefixes other failures without an envelope', () => {
    expect(() => unwrap(502, '<html>', translate)).toThrow('errors.withPrefix:HTTP 502');
    expect(unwrap(200, 'plain', translate)).toBe('plain');
  });
});

describe('transport', () => {
  it('sends New-Api-User with the stored id, or -1, from both clients', async () => {
    const a = wire({ body: ok({ id: 1 }) }, 7);
    await a.api.request('get', '/api/user/self');
    await a.provider.getOne({ resource: 'users', id: 1 });
    expect(a.calls.map((c) => c.headers.get('New-Api-User'))).toEqual(['7', '7']);
    const b = wire({ body: ok({ id: 1 }) });
    await b.api.request('get', '/api/status');
    await b.provider.getOne({ resource: 'users', id: 1 });
    expect(b.calls.map((c) => c.headers.get('New-Api-User'))).toEqual(['-1', '-1']);
  });

  it('sends JSON bodies', async () => {
    const w = wire({ body: ok(null) });
    await w.api.request('post', '/api/user/login', { body: { username: 'a' }, query: { turnstile: '' } });
    expect(w.calls[0]).toMatchObject({ url: '/api/user/login?turnstile=', method: 'POST', body: '{"username":"a"}' });
    expect(w.calls[0].headers.get('Content-Type')).toBe('application/json');
    await w.provider.create({ resource: 'users', variables: { username: 'a' } });
    expect(w.calls[1]).toMatchObject({ method: 'POST', body: '{"username":"a"}' });
    expect(w.calls[1].headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  it('reports a 401 once and throws the expired text, from both clients', async () => {
    const w = wire({ status: 401, body: { success: false, message: '无权进行此操作' } });
    await expect(w.api.request('get', '/api/user/self')).rejects.toThrow('errors.expired');
    expect(w.onUnauthorized).toHaveBeenCalledTimes(1);
    const failure = await w.provider.getOne({ resource: 'users', id: 1 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'errors.expired', statusCode: 401 });
    expect(w.onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it('reads an empty 429 body', async () => {
    const w = wire({ status: 429, raw: '' });
    await expect(w.api.request('get', '/api/x')).rejects.toThrow('errors.tooManyRequests');
    await expect(w.provider.getList({ resource: 'users' })).rejects.toThrow('errors.tooManyRequests');
    expect(w.onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a network failure into a prefixed error', async () => {
    const w = wire({});
    w.deps.fetch = async () => {
      throw new Error('offline');
    };
    await expect(createApi(w.deps).request('get', '/api/x')).rejects.toThrow('errors.withPrefix:offline');
    await expect(createDataProvider(w.deps).getOne({ resource: 'users', id: 1 })).rejects.toThrow('errors.withPrefix:offline');
  });
});

describe('refine data provider', () => {
  it('getList pages and searches', async () => {
    const w = wire({ body: ok({ items: [{ id: 2 }], total: 11, page: 1, page_size: 10 }) });
    const result = await w.provider.getList({ resource: 'users', pagination: { currentPage: 2, pageSize: 10 }, filters: [{ field: 'keyword', operator: 'eq', value: 'bo' }] });
    expect(result).toEqual({ data: [{ id: 2 }], total: 11 });
    expect(w.calls[0]).toMatchObject({ url: '/api/user/search?p=1&page_size=10&keyword=bo', method: 'GET' });
  });

  it("getList of an undeclared resource uses /api/<name>/, a role's collection and toggles", async () => {
    const w = wire({ body: ok({ items: [], total: 0 }) });
    await w.provider.getList({ resource: 'group', pagination: { currentPage: 1, pageSize: 100 } });
    expect(w.calls[0].url).toBe('/api/group/?p=0&page_size=100');
    await w.provider.getList({ resource: 'users', meta: { api: '/api/user/self/', query: { id_sort: true } } });
    expect(w.calls[1].url).toBe('/api/user/self/?p=0&page_size=10&id_sort=true');
  });

  it('getOne, create, update, deleteOne hit the REST routes', async () => {
    const w = wire({ body: ok({ id: 4, username: 'x' }) });
    expect((await w.provider.getOne({ resource: 'users', id: 4 })).data).toEqual({ id: 4, username: 'x' });
    expect(w.calls[0]).toMatchObject({ url: '/api/user/4', method: 'GET' });
    expect((await w.provider.create({ resource: 'users', variables: { username: 'x' } })).data).toEqual({ id: 4, username: 'x' });
    expect(w.calls[1]).toMatchObject({ url: '/api/user', method: 'POST', body: '{"username":"x"}' });
    await w.provider.update({ resource: 'users', id: '4', variables: { quota: 10 } });
    expect(w.calls[2]).toMatchObject({ url: '/api/user/', method: 'PUT', body: '{"quota":10,"id":4}' });
    await w.provider.deleteOne({ resource: 'users', id: 4 });
    expect(w.calls[3]).toMatchObject({ url: '/api/user/4', method: 'DELETE', body: undefined });
  });

  it('update with meta.statusOnly sends only id and status', async () => {
    const w = wire({ body: ok(null) });
    const res = await w.provider.update({ resource: 'users', id: 9, variables: { status: 2, name: 'ignored' }, meta: { statusOnly: true } });
    expect(w.calls[0]).toMatchObject({ url: '/api/user/?status_only=true', method: 'PUT', body: '{"id":9,"status":2}' });
    expect(res.data).toEqual({ id: 9, status: 2 });
  });

  it('custom calls a named endpoint or a plain url', async () => {
    const w = wire({ body: ok('ok') });
    const named = await w.provider.custom!({ url: '', method: 'post', payload: { id: 1, action: 'disable' }, meta: { resource: 'users', endpoint: 'manage' } });
    expect(named.data).toBe('ok');
    expect(w.calls[0]).toMatchObject({ url: '/api/user/manage', method: 'POST', body: '{"id":1,"action":"disable"}' });
    await w.provider.custom!({ url: '/api/group/', method: 'get' });
    expect(w.calls[1]).toMatchObject({ url: '/api/group/', method: 'GET' });
    await w.provider.custom!({ url: '', method: 'post', payload: { x: 1 }, query: { value: 'gpt-4o' }, meta: { resource: 'users', endpoint: 'test', id: 5 } });
    expect(w.calls[2]).toMatchObject({ url: '/api/user/test/5?model=x&value=gpt-4o', method: 'GET', body: undefined });
  });

  it('custom with meta.whole answers the whole reply', async () => {
    const w = wire({ body: { success: true, message: '', time: 1.25 } });
    const reply = await w.provider.custom!({ url: '', method: 'post', meta: { resource: 'users', endpoint: 'test', id: 2, whole: true } });
    expect(reply.data).toEqual({ success: true, message: '', time: 1.25 });
    await expect(w.provider.custom!({ url: '', method: 'post', meta: { resource: 'users', endpoint: 'nope' } })).rejects.toThrow('no endpoint');
  });

  it("turns success:false into an HttpError with the server's message and field errors", async () => {
    const w = wire({ body: { success: false, message: '用户名已存在，或已注销', errors: { username: 'taken' } } });
    const failure = await w.provider.create({ resource: 'users', variables: { username: 'x' } }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: '[用户名已存在，或已注销]', statusCode: 200, errors: { username: 'taken' } });
  });

  it('has no getMany, so refine asks getOne for each id', () => {
    expect(wire({}).provider.getMany).toBeUndefined();
  });
});
