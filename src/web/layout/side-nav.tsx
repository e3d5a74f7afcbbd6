/**
 * The side navigation (docs/console.md#side-navigation): sections by role and status flags, as computed by
 * `buildSideNav`. In the mobile drawer the top bar's links come first.
 *
 * The layout loads this module when it first shows a navigation (a signed-in sider, or the
 * phone drawer opened), so the public pages do without antd's Menu and Drawer and the icons.
 */
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Menu, theme, type MenuProps } from 'antd';
import { useTranslation } from '../use-translation';
import { useLocation, useNavigate } from 'react-router';
import { isRouted } from '../routes';
import { usePublicStatus } from '../state/status-context';
import { useStoredUser } from '../state/use-stored-user';
import { iconByName } from './icons';
import { buildSideNav, buildTopLinks, selectedKey, type BuiltSection } from './nav-model';

type Item = NonNullable<MenuProps['items']>[number];

function sectionItems(sections: BuiltSection[], collapsed: boolean, t: (k: string) => string): Item[] {
  return sections.flatMap((section, index): Item[] => {
    const entries: Item[] = section.entries.map((entry) =>
      entry.children
        ? { key: entry.path, icon: iconByName(entry.icon), label: t(entry.labelKey), children: entry.children.map((c) => ({ key: c.path, label: c.label })) }
        : { key: entry.path, icon: iconByName(entry.icon), label: t(entry.labelKey) },
    );
    if (collapsed || !section.labelKey) return index > 0 ? [{ type: 'divider' }, ...entries] : entries;
    return [{ type: 'group', key: `section-${section.key}`, label: t(section.labelKey), children: entries }];
  });
}

interface SideNavProps {
  collapsed?: boolean;
  /** The mobile drawer also lists the top bar's links. */
  withTopLinks?: boolean;
  onNavigate?: () => void;
}

export function SideNav({ collapsed = false, withTopLinks = false, onNavigate }: SideNavProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const status = usePublicStatus();
  const user = useStoredUser();
  const context = { status, role: user?.role ?? 0, isRouted };
  const sections = user ? buildSideNav(context) : [];
  const top = withTopLinks ? buildTopLinks(context) : [];
  const items: Item[] = [
    ...(top.length ? [{ type: 'group' as const, key: 'top', label: t('nav.sections.site'), children: top.map((l) => ({ key: l.external ? `ext:${l.path}` : l.path, label: t(l.labelKey) })) }] : []),
    ...sectionItems(sections, collapsed, t),
  ];
  const paths = [...top.filter((l) => !l.external).map((l) => l.path), ...sections.flatMap((s) => s.entries.flatMap((e) => [e.path, ...(e.children ?? []).map((c) => c.path)]))];
  const selected = selectedKey(pathname, paths);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('ext:')) window.open(key.slice(4), '_blank', 'noopener');
    else navigate(key);
    onNavigate?.();
  };

  return <Menu mode="inline" inlineCollapsed={collapsed} selectedKeys={selected ? [selected] : []} items={items} onClick={onClick} style={{ borderInlineEnd: 'none' }} data-testid="side-nav" />;
}

/** The signed-in sider's content: the navigation and, at its foot, the collapse toggle. */
export function SiderNav({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div className="sy-sider-inner">
      <SideNav collapsed={collapsed} />
      <div className="sy-sider-toggle-bar" style={{ background: token.colorBgContainer }}>
        <Button
          type="text"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
          aria-label={t(collapsed ? 'header.expandSider' : 'header.collapseSider')}
          data-testid="sider-toggle"
        />
      </div>
    </div>
  );
}

/** On phones: the navigation, top links first, in a drawer from the left. */
export function MobileNavDrawer({ open, onClose, title }: { open: boolean; onClose: () => void; title: string }) {
  return (
    <Drawer placement="left" open={open} onClose={onClose} width={260} title={title} styles={{ body: { padding: 0 } }}>
      <SideNav withTopLinks onNavigate={onClose} />
    </Drawer>
  );
}
