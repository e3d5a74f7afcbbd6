/**
 * A channel's outbound proxy, `setting.proxy`: the address every upstream call of that
 * channel goes through. Schemes http and https (a CONNECT tunnel through the proxy), socks5
 * and socks5h (a SOCKS5 tunnel; the proxy resolves the upstream's name in both cases, as the
 * reference's dialer does). Checked when a channel is saved, parsed again where it is used.
 *
 * The URL may carry the proxy's user:pass: messages never quote the URL, and what may be
 * shown of a proxy (logs) is `proxyLabel`, without them.
 */

export const MSG_PROXY = {
  notString: '代理地址必须是字符串',
  invalid: '代理地址格式错误，应为 协议://主机:端口',
  // The scheme is not quoted: in `user:pass@host` the "scheme" is the user name.
  scheme: '不支持的代理协议，仅支持 http、https、socks5 和 socks5h',
  path: '代理地址只能带空路径或 /',
  query: '代理地址不能带查询参数或片段',
} as const;

const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:']);

/** A proxy address that cannot be used; the message says why without quoting the address. */
export class ProxyUrlError extends Error {}

/** Parses and checks a proxy address; throws a ProxyUrlError when it cannot be used. */
export function parseProxyUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ProxyUrlError(MSG_PROXY.invalid);
  }
  if (!SCHEMES.has(url.protocol)) throw new ProxyUrlError(MSG_PROXY.scheme);
  if (!url.hostname) throw new ProxyUrlError(MSG_PROXY.invalid);
  if (url.pathname !== '' && url.pathname !== '/') throw new ProxyUrlError(MSG_PROXY.path);
  if (url.search !== '' || url.hash !== '' || raw.includes('#') || raw.includes('?')) throw new ProxyUrlError(MSG_PROXY.query);
  return url;
}

/**
 * The proxy a channel setting names: a trimmed non-empty string, else undefined (no proxy).
 * A stored value that is not a string is kept as text, so using it fails rather than the
 * channel's calls quietly going direct.
 */
export function proxyOfSetting(setting: Record<string, unknown> | null | undefined): string | undefined {
  const value = setting?.proxy;
  if (value === undefined || value === null) return undefined;
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).trim();
  return text === '' ? undefined : text;
}

/** The check of a channel's setting when it is saved: throws a ProxyUrlError for an unusable proxy. */
export function checkSettingProxy(setting: Record<string, unknown>): void {
  if (setting.proxy !== undefined && setting.proxy !== null && typeof setting.proxy !== 'string') throw new ProxyUrlError(MSG_PROXY.notString);
  const proxy = proxyOfSetting(setting);
  if (proxy) parseProxyUrl(proxy);
}

/** What may be shown of a proxy: scheme, host and port, never its credentials. */
export function proxyLabel(raw: string): string {
  try {
    const url = new URL(raw.trim());
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(invalid proxy url)';
  }
}

/**
 * `message` with the proxy's credentials replaced, for errors raised while using it (the
 * libraries do not quote them today; this keeps it so if one ever does).
 */
export function withoutProxySecrets(message: string, raw: string): string {
  let out = message.split(raw.trim()).join(proxyLabel(raw));
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return out;
  }
  for (const secret of [url.password, url.username].flatMap((s) => [s, decoded(s)])) {
    if (secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

/** A URL's percent-encoded user or password as typed (left as it is when not valid encoding). */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
