/**
 * Queries on the drawing (midjourneys) and music (tasks) tables. Filters use the
 * (user_id, submit_time), (channel_id, submit_time), mj_id / task_id and submit_time indexes.
 */
import type { Page, PageRequest } from '../../../shared/api/envelope';
import type { Database } from '../../db/tables';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../db/executor';
import { type Condition, fetchPage, whereGiven } from '../logs/filtered-list';

/** Newest first by submit time (then id), which the (x, submit_time) indexes deliver in order. */
function newestFirst<T extends 'midjourneys' | 'tasks'>(query: SelectQueryBuilder<Database, T, object>) {
  return query.selectAll().orderBy('submit_time', 'desc').orderBy('id', 'desc');
}

export type MidjourneyRow = Selectable<Database['midjourneys']>;
export type TaskRow = Selectable<Database['tasks']>;

/** Whose tasks, the same on both tables: one user's, and (administrators) one channel's. */
export interface TaskOwnerFilter {
  userId?: number;
  channelId?: number;
}

/** Both tables: the same owner and submit-time columns, the time in the table's own unit. */
function ownerAndTime<T extends 'midjourneys' | 'tasks'>(filter: TaskOwnerFilter, start: number | undefined, end: number | undefined): Condition<T>[] {
  return [
    ['user_id', '=', filter.userId],
    ['channel_id', '=', filter.channelId],
    ['submit_time', '>=', start],
    ['submit_time', '<=', end],
  ];
}

export interface MidjourneyFilter extends TaskOwnerFilter {
  mjId?: string;
  /** Milliseconds, inclusive, like the submit_time column. */
  startMs?: number;
  endMs?: number;
}

export async function listMidjourneys(db: Executor, filter: MidjourneyFilter, page: PageRequest): Promise<Page<MidjourneyRow>> {
  const filtered = whereGiven(db.selectFrom('midjourneys'), [...ownerAndTime(filter, filter.startMs, filter.endMs), ['mj_id', '=', filter.mjId]]);
  return fetchPage(filtered, newestFirst, page);
}

export interface TaskFilter extends TaskOwnerFilter {
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
    ...ownerAndTime(filter, filter.start, filter.end),
    ['task_id', '=', filter.taskId],
    ['platform', '=', filter.platform],
    ['status', '=', filter.status],
    ['action', '=', filter.action],
  ]);
  return fetchPage(filtered, newestFirst, page);
}
