import { describe, expect, it } from 'vitest';
import { buildSideNav, buildTopLinks, chatItems, isNewYearsDay, SIDE_NAV } from './nav-model';

const everything = () => true;
const keys = (sections: ReturnType<typeof buildSideNav>) => sections.map((s) => [s.key, s.entries.map((e) => e.key)]);

describe('side navigation', () => {
  it('lists the documented entries in order for an admin with every flag on', () => {
    const status = { enable_data_export: true, enable_drawing: true, enable_task: true, chats: [{ ChatGPT: 'https://x' }] };
    expect(keys(buildSideNav({ status, role: 10, isRouted: everything }))).toEqual([
      ['main', ['playground', 'chat']],
      ['console', ['detail', 'token', 'log', 'midjourney', 'task']],
      ['admin', ['channel', 'redemption', 'user', 'audit', 'setting']],
      ['personal', ['topup', 'personal']],
    ]);
  });

  it('hides the admin section from ordinary users and flagged entries when off', () => {
    const sections = buildSideNav({ status: {}, role: 1, isRouted: everything });
    expect(keys(sections)).toEqual([
      ['main', ['playground']],
      ['console', ['token', 'log']],
      ['personal', ['topup', 'personal']],
    ]);
  });

  it('offers only the screens this build routes', () => {
    const routed = new Set(['/user', '/setting', '/personal']);
    expect(keys(buildSideNav({ status: {}, role: 100, isRouted: (p) => routed.has(p) }))).toEqual([
      ['admin', ['user', 'setting']],
      ['personal', ['personal']],
    ]);
  });

  it('turns saved chats into /chat/{index} items', () => {
    expect(chatItems([{ A: 'https://a' }, {}, { B: 'https://b' }])).toEqual([
      { key: 'chat-0', label: 'A', path: '/chat/0' },
      { key: 'chat-2', label: 'B', path: '/chat/2' },
    ]);
    expect(chatItems('nope')).toEqual([]);
  });

  it('declares sidebar entries with unique keys', () => {
    const all = SIDE_NAV.flatMap((s) => s.entries.map((e) => e.key));
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('top bar', () => {
  it('shows docs only with a docs link and points Console at the first console screen', () => {
    const routed = new Set(['/token', '/personal', '/about']);
    const links = buildTopLinks({ status: {}, role: 0, isRouted: (p) => routed.has(p) });
    expect(links.map((l) => [l.key, l.path])).toEqual([
      ['home', '/'],
      ['console', '/token'],
      ['about', '/about'],
    ]);
    const withDocs = buildTopLinks({ status: { docs_link: 'https://docs', enable_data_export: true }, role: 1, isRouted: everything });
    expect(withDocs.map((l) => l.key)).toEqual(['home', 'console', 'pricing', 'docs', 'about']);
    expect(withDocs.find((l) => l.key === 'console')?.path).toBe('/detail');
    expect(withDocs.find((l) => l.key === 'docs')).toMatchObject({ path: 'https://docs', external: true });
  });

  it('knows New Year', () => {
    expect(isNewYearsDay(new Date(2027, 0, 1, 12))).toBe(true);
    expect(isNewYearsDay(new Date(2027, 0, 2))).toBe(false);
    expect(isNewYearsDay(new Date(2027, 11, 31))).toBe(false);
  });
});
