// A console API client like the browser's: keeps the session cookie and sends the
// New-Api-User header of the signed-in user.
export class ApiClient {
  cookie = '';
  userId = undefined;

  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }

  async request(method, path, body) {
    const headers = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.userId !== undefined) headers['new-api-user'] = String(this.userId);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    let res;
    try {
      res = await fetch(this.baseUrl + path, init);
    } catch (err) {
      // A keep-alive connection the server closed while we were busy: a GET is asked again once.
      if (method !== 'GET' || err.cause?.code !== 'UND_ERR_SOCKET') throw err;
      res = await fetch(this.baseUrl + path, init);
    }
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0];
      if (pair.startsWith('session=')) this.cookie = pair;
    }
    const text = await res.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }

  get(path) {
    return this.request('GET', path);
  }
  post(path, body) {
    return this.request('POST', path, body);
  }
  put(path, body) {
    return this.request('PUT', path, body);
  }

  async login(username, password) {
    const res = await this.post('/api/user/login', { username, password });
    if (!res.body?.success) throw new Error(`login as ${username} failed: ${JSON.stringify(res.body).slice(0, 200)}`);
    this.userId = res.body.data.id;
    /** The login reply's user record (what the console stores locally as `user`). */
    this.user = res.body.data;
    return this;
  }
}
