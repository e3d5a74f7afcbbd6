/**
 * The task relays' routes (docs/tasks.md#routes, docs/tasks.md#suno), as data: relay/routes.ts
 * mounts them under `/mj`, `/<mode>/mj` and `/suno` with the relay's request id, CORS and
 * byte-keeping body parser. Each handler answers a status and JSON text, or writes the
 * response itself (the image proxy) and answers undefined.
 */
import type { ServerResponse } from 'node:http';
import type { RelayRequest } from '../pipeline/exchange';
import type { RelayRuntime } from '../runtime';
import { SUBMIT_ROUTES } from './midjourney/actions';
import { submitMidjourney, type TaskReply } from './midjourney/submit';
import { fetchTask, imageSeed, listByCondition, notify, relayImage } from './midjourney/reads';
import { submitSuno } from './suno/submit';
import { fetchMany, fetchOne } from './suno/reads';

export interface TaskRouteContext {
  request: RelayRequest;
  params: Record<string, string>;
  /** `mj-fast` … for `/:mode/mj/...` routes. */
  mode: string | undefined;
  raw: ServerResponse;
}

export interface TaskRoute {
  method: 'GET' | 'POST';
  /** Relative to the scope (`/mj` or `/suno`). */
  url: string;
  /** Answered without a token (the image proxy). */
  open?: boolean;
  handle(rt: RelayRuntime, c: TaskRouteContext): Promise<TaskReply | undefined>;
}

/** The mode prefixes of Midjourney Plus (`/mj-fast/mj/...`). */
export const MJ_MODES: ReadonlySet<string> = new Set(['mj-fast', 'mj-turbo', 'mj-relax']);

export const MIDJOURNEY_ROUTES: readonly TaskRoute[] = [
  ...SUBMIT_ROUTES.map((route): TaskRoute => ({
    method: 'POST',
    url: route.path,
    handle: (rt, c) => submitMidjourney(rt, route, c.request, c.mode),
  })),
  { method: 'GET', url: '/image/:id', open: true, handle: (rt, c) => relayImage(rt, c.params.id ?? '', c.raw) },
  { method: 'GET', url: '/task/:id/fetch', handle: (rt, c) => fetchTask(rt, c.request, c.params.id ?? '') },
  { method: 'POST', url: '/task/list-by-condition', handle: (rt, c) => listByCondition(rt, c.request) },
  {
    method: 'GET',
    url: '/task/:id/image-seed',
    handle: (rt, c) => imageSeed(rt, c.request, c.params.id ?? '', `/mj/task/${encodeURIComponent(c.params.id ?? '')}/image-seed`),
  },
  { method: 'POST', url: '/notify', handle: (rt, c) => notify(rt, c.request) },
];

export const SUNO_ROUTES: readonly TaskRoute[] = [
  { method: 'POST', url: '/submit/:action', handle: (rt, c) => submitSuno(rt, c.request, c.params.action ?? '') },
  { method: 'POST', url: '/fetch', handle: (rt, c) => fetchMany(rt, c.request) },
  { method: 'GET', url: '/fetch/:id', handle: (rt, c) => fetchOne(rt, c.request, c.params.id ?? '') },
];
