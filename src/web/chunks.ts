/**
 * Chunks loaded on demand that the entry may start early: a chunk is loaded once, and once
 * in, its value is kept (`value`), so a screen the entry preloaded renders at once instead
 * of suspending (`lazy-chunk.tsx`). No React here: the entry imports this module and must
 * stay tiny (see `main.tsx`).
 */
import type { SiderProps } from 'antd';
import type { ComponentType } from 'react';
import type { StoredUser } from './auth-provider';

export interface Chunk<T> {
  /** Starts loading (once; again after a failure) and settles with the value. */
  load(): Promise<T>;
  /** The value once loaded. */
  value?: T;
}

export function chunk<T>(load: () => Promise<T>): Chunk<T> {
  let pending: Promise<T> | undefined;
  const c: Chunk<T> = {
    load: () =>
      (pending ??= load().then(
        (value) => (c.value = value),
        (err: unknown) => {
          pending = undefined;
          throw err;
        },
      )),
  };
  return c;
}

/** A chunk whose value is the named export `name` of a module (a component). */
export function componentChunk<M, P = object>(load: () => Promise<M>, name: keyof M & string): Chunk<ComponentType<P>> {
  return chunk(async () => (await load())[name] as ComponentType<P>);
}

/**
 * The signed-in side of the console: its routes, refine around them, the resource screens,
 * and the frame's signed-in parts (antd's Sider with the menu in it, the user's menu).
 */
export const SIGNED_IN_CHUNKS = {
  sider: componentChunk<typeof import('antd/es/layout/Sider'), SiderProps>(() => import('antd/es/layout/Sider'), 'default'),
  sideNav: componentChunk<typeof import('./layout/side-nav'), { collapsed: boolean; onToggle: () => void }>(() => import('./layout/side-nav'), 'SiderNav'),
  /** The top bar's menu of the signed-in user (avatar, personal page, logout). */
  userMenu: componentChunk<typeof import('./layout/signed-in-menu'), { user: StoredUser }>(() => import('./layout/signed-in-menu'), 'SignedInMenu'),
  routes: componentChunk(() => import('./signed-in-routes'), 'SignedInRoutes'),
  refine: componentChunk(() => import('./refine-outlet'), 'RefineOutlet'),
  resourceScreen: componentChunk<typeof import('./crud/resource-screen'), { name: string }>(() => import('./crud/resource-screen'), 'ResourceScreen'),
  /** Starts the first request of the list at an address (`crud/first-list.ts`). */
  firstList: chunk(async () => (await import('./crud/first-list')).prefetchFirstList),
};
