/**
 * antd's Tooltip for a hover hint, loaded when the pointer first comes over its child: the
 * frame shows one on every page (the theme toggle), and antd's Tooltip brings its
 * positioning engine, a resize observer and colour helpers the first page does not need.
 * Until then the child renders as it is; once loaded the Tooltip wraps it (a new element, so
 * focus is handed over) and opens at once when the pointer is still there.
 */
import type { TooltipProps } from 'antd';
import { cloneElement, lazy, Suspense, useEffect, useRef, useState, type MouseEvent, type ReactElement, type Ref } from 'react';

const loadTooltip = () => import('antd/es/tooltip');
const Tooltip = lazy(loadTooltip);

interface ChildProps {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
}

/** Runs `then` once mounted (after the loaded Tooltip and its child are in the page). */
function Mounted({ then }: { then: () => void }) {
  useEffect(then, [then]);
  return null;
}

export function LazyTooltip({ title, children }: { title: TooltipProps['title']; children: ReactElement<ChildProps> }) {
  const [loaded, setLoaded] = useState(false);
  const hovered = useRef(false);
  const node = useRef<HTMLElement | null>(null);
  const hadFocus = useRef(false);
  const child = cloneElement(children, {
    ref: node,
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(event);
      hovered.current = true;
      // Swapped in after the import settles, never in the middle of a tap's mouse events.
      if (!loaded)
        void loadTooltip().then(() => {
          hadFocus.current = node.current !== null && node.current === document.activeElement;
          setLoaded(true);
        });
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(event);
      hovered.current = false;
    },
  });
  const [handOver] = useState(() => () => {
    if (hadFocus.current) node.current?.focus();
  });
  if (!loaded) return child;
  return (
    <Suspense fallback={child}>
      <Tooltip title={title} defaultOpen={hovered.current}>
        {child}
      </Tooltip>
      <Mounted then={handOver} />
    </Suspense>
  );
}
