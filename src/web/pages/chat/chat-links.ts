/**
 * Chat links (docs/console.md#chat-links): the saved chats of the public
 * status (`[{name: link}]`), filled with a token key (`{key}` → `sk-<key>`) and this
 * server's address (`{address}`, URL-encoded; `{cherryConfig}` for Cherry Studio's
 * base64 settings). Pure, so each rule is unit-tested.
 */

export interface ChatEntry {
  name: string;
  link: string;
}

/** The saved chats in order; entries that are not `{name: link}` are skipped. */
export function chatEntries(chats: unknown): ChatEntry[] {
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((chat) => {
    if (!chat || typeof chat !== 'object') return [];
    const [name, link] = Object.entries(chat as Record<string, unknown>)[0] ?? [];
    return typeof name === 'string' && typeof link === 'string' && link ? [{ name, link }] : [];
  });
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A chat link with the key and address put in. */
export function fillChatLink(link: string, key: string, address: string): string {
  const apiKey = `sk-${key}`;
  if (link.includes('{cherryConfig}')) {
    const config = { id: 'switchyard', baseUrl: address, apiKey, name: 'Switchyard' };
    return link.replaceAll('{cherryConfig}', encodeURIComponent(base64(JSON.stringify(config))));
  }
  return link.replaceAll('{address}', encodeURIComponent(address)).replaceAll('{key}', apiKey);
}

/** The redirect page's link: NextChat-style settings in the fragment of the configured chat link. */
export function chat2Link(chatLink: string, key: string, address: string): string {
  const base = chatLink.replace(/\/+$/, '');
  return `${base}/#/?settings={"key":"sk-${key}","url":"${encodeURIComponent(address)}"}`;
}

/** Which address clients should call: the configured server address, else this page's origin. */
export function serverAddressOf(configured: unknown, origin: string): string {
  const text = typeof configured === 'string' ? configured.trim().replace(/\/+$/, '') : '';
  return text || origin;
}
