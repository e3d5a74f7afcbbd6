/**
 * How antd renders outside the React tree (the click wave of buttons, static `message` and
 * `Modal` calls), on React 19: vite.config.ts points antd's `UnstableContext` here instead of
 * rc-util's `React/render`, whose legacy `ReactDOM.render` React 19 no longer has. This is what
 * `@ant-design/v5-patch-for-react-19` sets at run time, without keeping rc-util's legacy path
 * (and the async-function polyfill it carries) in the first page's code.
 */
import type { ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

const roots = new WeakMap<Element | DocumentFragment, Root>();

export function render(node: ReactElement, container: Element | DocumentFragment): void {
  let root = roots.get(container);
  if (!root) roots.set(container, (root = createRoot(container)));
  root.render(node);
}

/** On the next task, as the patch does: antd may ask while React is still rendering. */
export async function unmount(container: Element | DocumentFragment): Promise<void> {
  const root = roots.get(container);
  if (!root) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  roots.delete(container);
  root.unmount();
}
