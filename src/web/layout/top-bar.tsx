/**
 * The top bar (docs/console.md#top-bar): brand, Home / Console / Pricing / Docs / About, the Self-use
 * and Demo badges, the New Year easter egg, theme toggle, language menu and user menu.
 * On phones the links move into the navigation drawer behind the menu button.
 */
import { MenuOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../use-translation';
import { Link, useLocation } from 'react-router';
import { LazyTooltip } from '../components/lazy-tooltip';
import { PlainText } from '../components/plain-typography';
import { SiteLogo, SiteName } from '../components/site-brand';
import { isRouted } from '../routes';
import { usePublicStatus } from '../state/status-context';
import { useThemeMode } from '../state/theme-context';
import { useStoredUser } from '../state/use-stored-user';
import { LanguageMenu } from './language-menu';
import { buildTopLinks, isNewYearsDay, selectedKey } from './nav-model';
import { TopNav } from './top-nav';
import { useIsMobile } from './use-is-mobile';
import { UserMenu } from './user-menu';
import { useHydrating } from '../prerender/hydration';

// Shown on 1 January only; its Dropdown stays out of the other days' pages.
const NewYearEgg = lazy(async () => ({ default: (await import('./new-year-egg')).NewYearEgg }));

// A component of its own, so the bar's Space keeps an item for it every day and its spacing
// stays as it was when the egg decided for itself whether to show.
function NewYearSlot() {
  // The prerendered sign-in page has no day: the egg shows right after hydration.
  const hydrating = useHydrating();
  if (hydrating || !isNewYearsDay(new Date())) return null;
  return (
    <Suspense fallback={null}>
      <NewYearEgg />
    </Suspense>
  );
}

// Tags only on self-use and demo sites: their code loads then.
const ModeBadges = lazy(async () => ({ default: (await import('./mode-badges')).ModeBadges }));

// A component of its own, so the bar's Space keeps an item for it whether or not it shows.
function ModeBadgesSlot({ compact }: { compact: boolean }) {
  const status = usePublicStatus();
  if (!status.self_use_mode_enabled && !status.demo_site_enabled) return null;
  return (
    <Suspense fallback={null}>
      <ModeBadges compact={compact} />
    </Suspense>
  );
}

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const status = usePublicStatus();
  const user = useStoredUser();
  const { mode, toggle } = useThemeMode();
  const isMobile = useIsMobile();
  const links = buildTopLinks({ status, role: user?.role ?? 0, isRouted });
  const internal = links.filter((l) => !l.external).map((l) => l.path);
  const active = pathname === '/' ? '/' : selectedKey(pathname, internal);

  return (
    <div className="sy-topbar">
      {isMobile && <Button type="text" icon={<MenuOutlined />} onClick={onOpenMenu} aria-label={t('header.openMenu')} data-testid="open-menu" />}
      <Link to="/" className="sy-brand">
        <SiteLogo size={28} />
        {!isMobile && (
          <PlainText strong className="sy-brand-name">
            <SiteName />
          </PlainText>
        )}
      </Link>
      {!isMobile && <TopNav links={links} active={active} />}
      <Space size={isMobile ? 2 : 6} className="sy-topbar-right">
        <ModeBadgesSlot compact={isMobile} />
        <NewYearSlot />
        <LazyTooltip title={t(mode === 'dark' ? 'header.lightMode' : 'header.darkMode')}>
          <Button type="text" icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />} onClick={toggle} aria-label={t('header.toggleTheme')} data-testid="theme-toggle" />
        </LazyTooltip>
        <LanguageMenu />
        <UserMenu />
      </Space>
    </div>
  );
}
