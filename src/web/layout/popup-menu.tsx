/**
 * A button's popup menu for the top bar (the language menu, the links that do not fit),
 * drawn with the theme's tokens as antd draws its Dropdown menu or a horizontal Menu's
 * submenu (`.sy-popup*` in styles.css). antd's Dropdown and Menu would bring their popup
 * machinery to every page, sign-in first.
 *
 * It follows the WAI-ARIA menu button pattern: the trigger says it has a menu and whether it
 * is open; Enter, Space or the down arrow open it on the chosen item (the up arrow on the
 * last); the arrows, Home and End move, Enter or Space choose, Escape closes back to the
 * trigger; Tab or a click elsewhere closes.
 */
import { theme } from 'antd';
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

export interface PopupMenuItem {
  key: string;
  label: ReactNode;
  selected?: boolean;
  /** The item's language, when it differs from the page's (a language's own name). */
  lang?: string;
}

/** What the trigger element must carry. */
export interface PopupTriggerProps {
  ref: RefObject<HTMLButtonElement | null>;
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
  'aria-controls'?: string;
  onClick: () => void;
  onKeyDown: (event: KeyboardEvent) => void;
}

interface PopupMenuProps {
  items: PopupMenuItem[];
  onChoose: (key: string) => void;
  /** The menu's accessible name. */
  label: string;
  /** antd's Dropdown menu, or a horizontal Menu's submenu. */
  look: 'dropdown' | 'submenu';
  /** Also opens while the pointer rests on it, as a horizontal Menu's submenu does. */
  hover?: boolean;
  className?: string;
  trigger: (props: PopupTriggerProps) => ReactNode;
}

/** antd's delay before a hovered submenu closes once the pointer has left. */
const HOVER_CLOSE_MS = 100;

export function PopupMenu({ items, onChoose, label, look, hover = false, className, trigger }: PopupMenuProps) {
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  // The item to focus once open: none when the pointer opened it by resting on the trigger.
  const [focusAt, setFocusAt] = useState<number | null>(null);
  // Near the window's right edge the popup aligns its right side with the trigger's instead.
  const [alignRight, setAlignRight] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const menuId = useId();

  const menuItems = () => Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const chosenIndex = () =>
    Math.max(
      0,
      items.findIndex((item) => item.selected),
    );

  const show = (at: number | null) => {
    window.clearTimeout(closeTimer.current);
    if (!open) setAlignRight(false);
    setFocusAt(at);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    window.clearTimeout(closeTimer.current);
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const choose = (key: string) => {
    close(true);
    onChoose(key);
  };

  useLayoutEffect(() => {
    if (!open || !list.current) return;
    if (list.current.getBoundingClientRect().right > document.documentElement.clientWidth) setAlignRight(true);
    if (focusAt !== null) menuItems()[focusAt]?.focus();
    // menuItems reads the list as rendered; only opening and the wanted item matter here.
  }, [open, focusAt]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const onTriggerKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show(event.key === 'ArrowUp' ? items.length - 1 : chosenIndex());
    }
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const all = menuItems();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at < 0 ? all.length - 1 : at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') close(false);
    else if ((event.key === 'Enter' || event.key === ' ') && at >= 0) {
      event.preventDefault();
      choose(items[at].key);
    }
  };

  const colours = {
    '--sy-menu-bg': token.colorBgElevated,
    '--sy-menu-radius': `${token.borderRadiusLG}px`,
    '--sy-menu-shadow': token.boxShadowSecondary,
    '--sy-menu-item-radius': `${token.borderRadiusSM}px`,
    '--sy-menu-color': token.colorText,
    '--sy-menu-hover': look === 'dropdown' ? token.controlItemBgHover : token.colorBgTextHover,
    '--sy-menu-selected': token.colorPrimary,
    '--sy-menu-selected-bg': token.controlItemBgActive,
    '--sy-menu-selected-hover': look === 'dropdown' ? token.controlItemBgActiveHover : token.controlItemBgActive,
    fontFamily: token.fontFamily,
  } as CSSProperties;

  const popupClass = ['sy-popup', `sy-popup-${look}`, alignRight ? 'sy-popup-right' : ''].filter(Boolean).join(' ');
  return (
    <span
      className={className ? `sy-menu-button ${className}` : 'sy-menu-button'}
      ref={root}
      onMouseEnter={hover ? () => show(null) : undefined}
      onMouseLeave={
        hover
          ? () => {
              closeTimer.current = window.setTimeout(() => close(false), HOVER_CLOSE_MS);
            }
          : undefined
      }
    >
      {trigger({
        ref: button,
        'aria-haspopup': 'menu',
        'aria-expanded': open,
        'aria-controls': open ? menuId : undefined,
        // A hovered submenu stays open on a click, as antd's does; a dropdown toggles.
        onClick: () => (open && !hover ? close(false) : show(chosenIndex())),
        onKeyDown: onTriggerKey,
      })}
      {open && (
        <div className={popupClass} style={colours}>
          <ul ref={list} id={menuId} role="menu" aria-label={label} className="sy-popup-menu" onKeyDown={onMenuKey}>
            {items.map((item) => (
              <li
                key={item.key}
                role="menuitem"
                tabIndex={-1}
                lang={item.lang}
                className={item.selected ? 'sy-popup-menu-item sy-popup-menu-item-selected' : 'sy-popup-menu-item'}
                onClick={() => choose(item.key)}
              >
                {item.label}
              </li>
            ))}
          </ul>
        </div>
      )}
    </span>
  );
}
