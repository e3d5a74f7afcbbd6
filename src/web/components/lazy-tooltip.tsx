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
import { cloneElement, useEffect, useRef, useState, type ComponentType, type MouseEvent, type ReactElement, type Ref } from 'react';

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
  const hovered = useRef(false);
  const pressed = useRef(false);
  const waiting = useRef<TooltipComponent | undefined>(undefined);
  const node = useRef<HTMLElement | null>(null);
  const hadFocus = useRef(false);

  const swapIn = (component: TooltipComponent) => {
    hadFocus.current = node.current !== null && node.current === document.activeElement;
    setTooltip(() => component);
  };
  const whenLoaded = (component: TooltipComponent) => {
    if (pressed.current) waiting.current = component;
    else swapIn(component);
  };

  const child = cloneElement(children, {
    ref: node,
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(event);
      hovered.current = true;
      if (!Tooltip) void (loadedTooltip ? Promise.resolve(loadedTooltip) : loadTooltip()).then(whenLoaded);
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(event);
      hovered.current = false;
    },
    onMouseDown: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseDown?.(event);
      if (Tooltip) return;
      pressed.current = true;
      // The release may come anywhere (the pointer can leave while pressed). The click it
      // makes is dispatched right after it in the same task, so the swap goes in a later one.
      window.addEventListener(
        'mouseup',
        () => {
          pressed.current = false;
          const component = waiting.current;
          waiting.current = undefined;
          if (component) setTimeout(() => swapIn(component), 0);
        },
        { once: true, capture: true },
      );
    },
  });

  useEffect(() => {
    if (Tooltip && hadFocus.current) node.current?.focus();
  }, [Tooltip]);

  if (!Tooltip) return child;
  return (
    <Tooltip title={title} defaultOpen={hovered.current}>
      {child}
    </Tooltip>
  );
}
