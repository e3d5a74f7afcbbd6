/**
 * The top bar's links (Home, Console, Pricing, Docs, About) as plain anchors drawn like
 * antd's horizontal Menu: the current link coloured and underlined, a hovered one
 * underlined (`.sy-topnav` in styles.css). Links that do not fit go behind a "···" whose
 * popup lists them, as the Menu's overflow does. External links open a new tab.
 *
 * antd's Menu would bring its overflow and popup machinery to every page, sign-in first.
 */
import { EllipsisOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from '../use-translation';
import { Link, useNavigate } from 'react-router';
import type { TopLink } from './nav-model';
import { PopupMenu } from './popup-menu';

const itemClass = (selected: boolean, hidden: boolean) => ['sy-topnav-item', selected ? 'sy-topnav-item-selected' : '', hidden ? 'sy-topnav-item-hidden' : ''].filter(Boolean).join(' ');

export function TopNav({ links, active }: { links: TopLink[]; active: string | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const nav = useRef<HTMLElement>(null);
  // How many links show in the bar; the rest are behind "···".
  const [shown, setShown] = useState(links.length);
  const labels = links.map((l) => t(l.labelKey));
  const signature = labels.join('\n');

  // Every link stays rendered (the hidden ones invisible) so all can be measured; the bar
  // is measured again when its width or the labels change. Measured only when the observer
  // reports (after the browser's own layout, before it paints), never from the effect itself:
  // reading sizes there would force a layout of the whole first page in the middle of its
  // render, and the page would be laid out twice.
  useLayoutEffect(() => {
    const bar = nav.current;
    if (!bar) return;
    const fit = () => {
      const widths = Array.from(bar.querySelectorAll<HTMLElement>(':scope > a'), (a) => a.getBoundingClientRect().width);
      const room = bar.getBoundingClientRect().width;
      if (widths.reduce((sum, w) => sum + w, 0) <= room) {
        setShown(widths.length);
        return;
      }
      let used = bar.querySelector<HTMLElement>(':scope > .sy-topnav-more')?.getBoundingClientRect().width ?? 0;
      let count = 0;
      while (count < widths.length && used + widths[count] <= room) used += widths[count++];
      setShown(count);
    };
    const observer = new ResizeObserver(fit);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [signature, links.length]);

  const open = (link: TopLink) => (link.external ? window.open(link.path, '_blank', 'noopener') : navigate(link.path));
  const rest = links.slice(shown);
  const colours = { '--sy-topnav-color': token.colorText, '--sy-topnav-active': token.colorPrimary, fontFamily: token.fontFamily } as CSSProperties;

  return (
    <nav ref={nav} className="sy-topnav" style={colours} data-testid="top-nav">
      {links.map((l, i) => {
        const hidden = i >= shown;
        return l.external ? (
          <a key={l.key} className={itemClass(false, hidden)} href={l.path} target="_blank" rel="noopener">
            {labels[i]}
          </a>
        ) : (
          <Link key={l.key} to={l.path} className={itemClass(l.path === active, hidden)} aria-current={l.path === active ? 'page' : undefined}>
            {labels[i]}
          </Link>
        );
      })}
      <PopupMenu
        look="submenu"
        hover
        label={t('nav.more')}
        className={rest.length ? 'sy-topnav-more' : 'sy-topnav-more sy-topnav-item-hidden'}
        items={rest.map((l) => ({ key: l.key, label: t(l.labelKey), selected: !l.external && l.path === active }))}
        onChoose={(key) => {
          const link = rest.find((l) => l.key === key);
          if (link) open(link);
        }}
        trigger={(props) => (
          <button
            {...props}
            type="button"
            className={itemClass(
              rest.some((l) => !l.external && l.path === active),
              false,
            )}
            aria-label={t('nav.more')}
          >
            <EllipsisOutlined />
          </button>
        )}
      />
    </nav>
  );
}
