/**
 * Queries on the drawing (midjourneys) and music (tasks) tables. Filters use the
 * (user_id, submit_time), (channel_id, submit_time), mj_id / task_id and submit_time indexes.
 */
import type { Page, PageRequest } from '../../../shared/api/envelope';
import type { Database } from '../../db/tables';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/executor';
import { fetchPage, whereGiven } from '../logs/filtered-list';

/** Newest first by submit time (then id), which the (x, submit_time) indexes deliver in order. */
function newestFirst<T extends 'midjourneys' | 'tasks'>(query: SelectQueryBuilder<Database, T, object>) {
  return query.selectAll().orderBy('submit_time', 'desc').orderBy('id', 'desc');
}

export type MidjourneyRow = Selectable<Database['midjourneys']>;
export type TaskRow = Selectable<Database['tasks']>;

export interface MidjourneyFilter {
  userId?: number;
  channelId?: number;
  mjId?: string;
  /** Milliseconds, inclusive, like the submit_time column. */
  startMs?: number;
  endMs?: number;
}

export async function listMidjourneys(db: Executor, filter: MidjourneyFilter, page: PageRequest): Promise<Page<MidjourneyRow>> {
  const filtered = whereGiven(db.selectFrom('midjourneys'), [
    ['user_id', '=', filter.userId],
    ['channel_id', '=', filter.channelId],
    ['mj_id', '=', filter.mjId],
    ['submit_time', '>=', filter.startMs],
    ['submit_time', '<=', filter.endMs],
  ]);
  return fetchPage(filtered, newestFirst, page);
}

export interface TaskFilter {
  userId?: number;
  channelId?: number;
  taskId?: string;
  platform?: string;
  status?: string;
  action?: string;
  /** Unix seconds, inclusive, like the submit_time column. */
  start?: number;
  end?: number;
}

export async function listTasks(db: Executor, filter: TaskFilter, page: PageRequest): Promise<Page<TaskRow>> {
  const filtered = whereGiven(db.selectFrom('tasks'), [
    ['user_id', '=', filter.userId],
    ['channel_id', '=', filter.channelId],
    ['task_id', '=', filter.taskId],
    ['platform', '=', filter.platform],
    ['status', '=', filter.status],
    ['action', '=', filter.action],
    ['submit_time', '>=', filter.start],
    ['submit_time', '<=', filter.end],
  ]);
  return fetchPage(filtered, newestFirst, page);
}
