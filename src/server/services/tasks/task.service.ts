/**
 * The drawing-task and music-task lists (docs/tasks.md#task-lists). Administrators
 * see every task and may filter by channel; a user sees only their own tasks, without the
 * channel. Time filters are unix seconds for both; drawing tasks store milliseconds. Image
 * addresses are given as clients of the relay get them (image-url.ts).
 */
import { parsePageRequest, type Page } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { nonZeroFilter, nullsToEmpty, textFilter } from '../logs/filtered-list';
import { listMidjourneys, listTasks, type MidjourneyRow, type TaskOwnerFilter, type TaskRow } from './task.repository';
import { forwardedImageUrl } from './image-url';

/** Who asks: an administrator sees every user's tasks, anyone else only their own. */
export type TaskScope = { admin: true } | { admin: false; userId: number };

interface PagingQuery {
  p?: string;
  page_size?: string;
}

export interface MidjourneyQuery extends PagingQuery {
  channel_id?: string;
  mj_id?: string;
  start_timestamp?: string;
  end_timestamp?: string;
}

export interface TaskQuery extends PagingQuery {
  channel_id?: string;
  task_id?: string;
  platform?: string;
  status?: string;
  action?: string;
  start_timestamp?: string;
  end_timestamp?: string;
}

/** A user's view of a task: the channel that ran it is an administrator's concern. */
function forScope<T extends { channel_id: number }>(row: T, scope: TaskScope): T | Omit<T, 'channel_id'> {
  const clean = nullsToEmpty(row);
  if (scope.admin) return clean;
  const { channel_id: _hidden, ...rest } = clean;
  return rest;
}

/** A user is held to their own tasks; only an administrator may filter by channel. */
function ownerFilter(query: { channel_id?: string }, scope: TaskScope): TaskOwnerFilter {
  return scope.admin ? { channelId: nonZeroFilter(query.channel_id) } : { userId: scope.userId };
}

/** Unix seconds to the milliseconds of midjourneys.submit_time; `end` covers its whole second. */
function secondsToMs(seconds: number | undefined, edge: 'start' | 'end'): number | undefined {
  if (seconds === undefined) return undefined;
  return edge === 'start' ? seconds * 1000 : seconds * 1000 + 999;
}

export async function listMidjourneysFor(ctx: AppContext, query: MidjourneyQuery, scope: TaskScope): Promise<Page<MidjourneyRow | Omit<MidjourneyRow, 'channel_id'>>> {
  const page = await listMidjourneys(
    ctx.db,
    {
      ...ownerFilter(query, scope),
      mjId: textFilter(query.mj_id),
      startMs: secondsToMs(nonZeroFilter(query.start_timestamp), 'start'),
      endMs: secondsToMs(nonZeroFilter(query.end_timestamp), 'end'),
    },
    parsePageRequest(query),
  );
  return { ...page, items: page.items.map((row) => forScope({ ...row, image_url: forwardedImageUrl(ctx, row) }, scope)) };
}

export async function listTasksFor(ctx: AppContext, query: TaskQuery, scope: TaskScope): Promise<Page<TaskRow | Omit<TaskRow, 'channel_id'>>> {
  const page = await listTasks(
    ctx.db,
    {
      ...ownerFilter(query, scope),
      taskId: textFilter(query.task_id),
      platform: textFilter(query.platform),
      status: textFilter(query.status),
      action: textFilter(query.action),
      start: nonZeroFilter(query.start_timestamp),
      end: nonZeroFilter(query.end_timestamp),
    },
    parsePageRequest(query),
  );
  return { ...page, items: page.items.map((row) => forScope(row, scope)) };
}
