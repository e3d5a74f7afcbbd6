/**
 * What the top bar and the side navigation offer (docs/console.md#top-bar, docs/console.md#side-navigation),
 * as data plus two pure functions. An entry appears only when its screen is routed in this
 * build (`isRouted`), its role and status flag allow it; so a screen added later shows up
 * in the menu by being routed, with no change here.
 */
import { ROLE_ADMIN } from '../../shared/roles';
import type { PublicStatus } from '../state/public-status';

export interface NavEntry {
  key: string;
  labelKey: string;
  icon: string;
  path: string;
  /** A public status switch that must be on. */
  flag?: 'enable_data_export' | 'enable_drawing' | 'enable_task';
  /** A submenu of the saved chat links (`/chat/{index}`). */
  chats?: boolean;
}

export interface NavSection {
  key: string;
  /** Absent: the entries sit at the top without a heading. */
  labelKey?: string;
  minRole?: number;
  entries: NavEntry[];
}

export const SIDE_NAV: NavSection[] = [
  {
    key: 'main',
    entries: [
      { key: 'playground', labelKey: 'nav.playground', icon: 'playground', path: '/playground' },
      { key: 'chat', labelKey: 'nav.chat', icon: 'chat', path: '/chat', chats: true },
    ],
  },
  {
    key: 'console',
    labelKey: 'nav.sections.console',
    entries: [
      { key: 'detail', labelKey: 'nav.dashboard', icon: 'dashboard', path: '/detail', flag: 'enable_data_export' },
      { key: 'token', labelKey: 'nav.tokens', icon: 'key', path: '/token' },
      { key: 'log', labelKey: 'nav.logs', icon: 'log', path: '/log' },
      { key: 'midjourney', labelKey: 'nav.drawing', icon: 'picture', path: '/midjourney', flag: 'enable_drawing' },
      { key: 'task', labelKey: 'nav.tasks', icon: 'task', path: '/task', flag: 'enable_task' },
    ],
  },
  {
    key: 'admin',
    labelKey: 'nav.sections.admin',
    minRole: ROLE_ADMIN,
    entries: [
      { key: 'channel', labelKey: 'nav.channels', icon: 'channel', path: '/channel' },
      { key: 'redemption', labelKey: 'nav.redemptions', icon: 'gift', path: '/redemption' },
      { key: 'user', labelKey: 'nav.users', icon: 'user', path: '/user' },
      { key: 'audit', labelKey: 'nav.audit', icon: 'audit', path: '/audit' },
      { key: 'setting', labelKey: 'nav.settings', icon: 'setting', path: '/setting' },
    ],
  },
  {
    key: 'personal',
    labelKey: 'nav.sections.personal',
    entries: [
      { key: 'topup', labelKey: 'nav.wallet', icon: 'wallet', path: '/topup' },
      { key: 'personal', labelKey: 'nav.personal', icon: 'profile', path: '/personal' },
    ],
  },
];

export interface ChatItem {
  key: string;
  label: string;
  path: string;
}

export interface NavContext {
  status: PublicStatus;
  role: number;
  isRouted: (path: string) => boolean;
}

export interface BuiltSection {
  key: string;
  labelKey?: string;
  entries: (NavEntry & { children?: ChatItem[] })[];
}

/** Saved chats (`[{name: link}]`) as submenu items leading to `/chat/{index}`. */
export function chatItems(chats: unknown): ChatItem[] {
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((chat, index) => {
    const name = chat && typeof chat === 'object' ? Object.keys(chat)[0] : undefined;
    return name ? [{ key: `chat-${index}`, label: name, path: `/chat/${index}` }] : [];
  });
}

/** The side navigation for this user and status; empty sections are dropped. */
export function buildSideNav({ status, role, isRouted }: NavContext): BuiltSection[] {
  const sections: BuiltSection[] = [];
  for (const section of SIDE_NAV) {
    if (section.minRole !== undefined && role < section.minRole) continue;
    const entries = section.entries.flatMap((entry) => {
      if (entry.flag && !status[entry.flag]) return [];
      if (!entry.chats) return isRouted(entry.path) ? [entry] : [];
      const children = chatItems(status.chats);
      return isRouted(entry.path) && children.length > 0 ? [{ ...entry, children }] : [];
    });
    if (entries.length > 0) sections.push({ key: section.key, labelKey: section.labelKey, entries });
  }
  return sections;
}

export interface TopLink {
  key: string;
  labelKey: string;
  path: string;
  external?: boolean;
}

/**
 * Home, Console (the dashboard, or the first console screen this build routes), Pricing,
 * Docs (only with a docs link, opened outside), About.
 */
export function buildTopLinks({ status, role, isRouted }: NavContext): TopLink[] {
  const consoleTarget = buildSideNav({ status, role: Math.max(role, 1), isRouted })
    .filter((s) => s.key !== 'main')
    .flatMap((s) => s.entries)[0];
  const links: TopLink[] = [{ key: 'home', labelKey: 'nav.home', path: '/' }];
  if (consoleTarget) links.push({ key: 'console', labelKey: 'nav.console', path: consoleTarget.path });
  if (isRouted('/pricing')) links.push({ key: 'pricing', labelKey: 'nav.pricing', path: '/pricing' });
  if (status.docs_link) links.push({ key: 'docs', labelKey: 'nav.docs', path: status.docs_link, external: true });
  links.push({ key: 'about', labelKey: 'nav.about', path: '/about' });
  return links;
}

/** The entry whose path is the longest prefix of the current path. */
export function selectedKey(pathname: string, paths: string[]): string | undefined {
  return paths.filter((p) => p !== '/' && (pathname === p || pathname.startsWith(`${p}/`))).sort((a, b) => b.length - a.length)[0] ?? (pathname === '/' && paths.includes('/') ? '/' : undefined);
}

/** Whether today is 1 January (the New Year easter egg). */
export function isNewYearsDay(now: Date): boolean {
  return now.getMonth() === 0 && now.getDate() === 1;
}
