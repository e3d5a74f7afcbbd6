import { describe, expect, it } from 'vitest';
import { chat2Link, chatEntries, fillChatLink, serverAddressOf } from './chat-links';

describe('chat links', () => {
  it('reads the saved chats', () => {
    expect(chatEntries([{ NextChat: 'https://chat.example/#/?k={key}' }, 'bad', { Empty: '' }, {}])).toEqual([{ name: 'NextChat', link: 'https://chat.example/#/?k={key}' }]);
    expect(chatEntries(undefined)).toEqual([]);
  });

  it('fills key and address', () => {
    expect(fillChatLink('https://c.example/#/?settings={"key":"{key}","url":"{address}"}', 'abc', 'http://gw.local:3000')).toBe(
      'https://c.example/#/?settings={"key":"sk-abc","url":"http%3A%2F%2Fgw.local%3A3000"}',
    );
    const cherry = fillChatLink('cherrystudio://providers/api-keys?v=1&data={cherryConfig}', 'abc', 'http://gw');
    const data = decodeURIComponent(cherry.split('data=')[1]);
    expect(JSON.parse(atob(data))).toMatchObject({ baseUrl: 'http://gw', apiKey: 'sk-abc' });
  });

  it('builds the redirect link and the address', () => {
    expect(chat2Link('https://app.nextchat.dev/', 'k', 'http://gw')).toBe('https://app.nextchat.dev/#/?settings={"key":"sk-k","url":"http%3A%2F%2Fgw"}');
    expect(serverAddressOf(' https://api.example.com/ ', 'http://x')).toBe('https://api.example.com');
    expect(serverAddressOf('', 'http://x')).toBe('http://x');
  });
});
