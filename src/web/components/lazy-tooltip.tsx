/**
 * antd's Tooltip for a hover hint, loaded when the pointer first comes over its child: the
 * frame shows one on every page (the theme toggle), and antd's Tooltip brings its
 * positioning engine, a resize observer and colour helpers the first page does not need.
 * Until then the child renders as it is; once loaded the Tooltip wraps it (a new element, so
 * focus is handed over) and opens at once when the pointer is still there.
 *
 * The swap replaces the child's element, so it never comes between a press and its release:
 * a click needs both on the same element, and a press held across the swap (a slow tap, or a
 * busy machine between the two) would be lost. It waits for the release and the click after.
 */
import type { TooltipProps } from 'antd';
import { cloneElement, useLayoutEffect, useRef, useState, type ComponentType, type MouseEvent, type ReactElement, type Ref } from 'react';

type TooltipComponent = ComponentType<TooltipProps>;

/** The loaded component, shared by every hint: later ones swap in without waiting. */
let loadedTooltip: TooltipComponent | undefined;
const loadTooltip = (): Promise<TooltipComponent> => import('antd/es/tooltip').then((module) => (loadedTooltip = module.default as TooltipComponent));

interface ChildProps {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onMouseDown?: (event: MouseEvent<HTMLElement>) => void;
}

export function LazyTooltip({ title, children }: { title: TooltipProps['title']; children: ReactElement<ChildProps> }) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | undefined>(undefined);
  const [, setReleases] = useState(0);
  const hovered = useRef(false);
  const pressed = useRef(false);
  const shown = useRef(false);
  const node = useRef<HTMLElement | null>(null);
  const hadFocus = useRef(false);

  const child = cloneElement(children, {
    ref: node,
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(event);
      hovered.current = true;
      if (!Tooltip) void (loadedTooltip ? Promise.resolve(loadedTooltip) : loadTooltip()).then((component) => setTooltip(() => component));
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(event);
      hovered.current = false;
    },
    onMouseDown: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseDown?.(event);
      if (shown.current) return;
      pressed.current = true;
      // The release may come anywhere (the pointer can leave while pressed). The click it
      // makes is dispatched right after it in the same task, so the swap goes in a later one.
      window.addEventListener(
        'mouseup',
        () => {
          pressed.current = false;
          setTimeout(() => setReleases((n) => n + 1), 0);
        },
        { once: true, capture: true },
      );
    },
  });

  // Decided when rendering, not when the import settles: a press can come between the two,
  // and a render and its commit run in one task, with no event between them.
  const show = Tooltip !== undefined && !pressed.current;
  if (show && !shown.current) hadFocus.current = node.current !== null && node.current === document.activeElement;
  // In the commit's own task, before any event can see the old value.
  useLayoutEffect(() => {
    shown.current = show;
    if (show && hadFocus.current) {
      hadFocus.current = false;
      node.current?.focus();
    }
  }, [show]);

  if (!Tooltip || !show) return child;
  return (
    <Tooltip title={title} defaultOpen={hovered.current}>
      {child}
    </Tooltip>
  );
}
