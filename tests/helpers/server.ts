/**
 * Starts a real server on an ephemeral port over a fresh database, and a small HTTP client
 * that keeps the session cookie and sends the New-Api-User header like the console does.
 */
import { loadConfig, projectRoot, type Config } from '../../src/server/config';
import { buildApp, type App } from '../../src/server/app';
import { createTestDatabase, type DialectCase, type TestDatabase } from './dialects';

export interface TestServer {
  app: App;
  url: string;
  database: TestDatabase;
  close(): Promise<void>;
  /** A client with no session. */
  client(): ApiClient;
  /** A client logged in as `username`. */
  login(username: string, password: string): Promise<ApiClient>;
  /** A client logged in as the first-start root account. */
  root(): Promise<ApiClient>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Adjusts the configuration after it was read from `env`. */
  configure?: (config: Config) => void;
  /** Run over this existing database (e.g. another server's) instead of a fresh one; not dropped on close. */
  database?: TestDatabase;
}

export async function startTestServer(dialect: DialectCase, options: StartOptions = {}): Promise<TestServer> {
  // A second node over the database of a first one: the first server keeps it and drops it.
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(dialect));
  const config = loadConfig(
    {
      SESSION_SECRET: 'test-session-secret-0123456789abcdef',
      DATA_DIR: database.dataDir,
      SQLITE_PATH: database.sqlitePath,
      SQL_DSN: database.sqlDsn,
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      SQL_MAX_OPEN_CONNS: '5',
      ...options.env,
    },
    projectRoot(),
  );
  config.port = 0;
  config.host = '127.0.0.1';
  options.configure?.(config);
  let app: App;
  try {
    app = await buildApp(config);
    app.server.log.level = 'warn';
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    if (ownsDatabase) await database.drop();
    throw err;
  }
  const address = app.server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const server: TestServer = {
    app,
    url,
    database,
    async close() {
      await app.close();
      if (ownsDatabase) await database.drop();
    },
    client: () => new ApiClient(url),
    async login(username, password) {
      const c = new ApiClient(url);
      const res = await c.post('/api/user/login', { username, password });
      if (!res.body.success) throw new Error(`login as ${username} failed: ${res.body.message}`);
      return c;
    },
    root: () => server.login('root', '123456'),
  };
  return server;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class ApiClient {
  cookie = '';
  /** Sent as New-Api-User; set from the login reply. */
  userId: number | undefined;
  extraHeaders: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...this.extraHeaders, ...headers };
    if (this.cookie) h.cookie = this.cookie;
    if (this.userId !== undefined && !('new-api-user' in h)) h['new-api-user'] = String(this.userId);
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers: h, body: payload, redirect: 'manual' });
    const setCookie = res.headers.getSetCookie();
    for (const c of setCookie) {
      const pair = c.split(';')[0]!;
      if (pair.startsWith('session=')) this.cookie = pair === 'session=' ? '' : pair;
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    if (path.startsWith('/api/user/login') && res.status === 200) {
      const data = (parsed as { success?: boolean; data?: { id?: number } })?.data;
      if ((parsed as { success?: boolean }).success && data?.id) this.userId = data.id;
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }
}
