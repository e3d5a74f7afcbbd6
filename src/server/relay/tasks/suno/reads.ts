/**
 * Reading music tasks back (docs/tasks.md#suno): `POST /suno/fetch {ids, action}` and
 * `GET /suno/fetch/:id`, the caller's own tasks only, as TaskDto.
 */
import type { RelayRequest } from '../../pipeline/exchange';
import type { RelayRuntime } from '../../runtime';
import type { TaskRow } from '../../../services/tasks/task.repository';
import { isObject, parseJson } from '../task-upstream';
import { authenticateTaskCaller } from '../task-caller';
import type { TaskReply } from '../midjourney/submit';
import { invalidRequest } from './task-error';

const MAX_IDS = 1000;

export function taskDto(row: TaskRow): Record<string, unknown> {
  const data = row.data ? parseJson(row.data) : undefined;
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: data ?? null,
  };
}

function ok(data: unknown): TaskReply {
  return { status: 200, body: JSON.stringify({ code: 'success', message: '', data }) };
}

export async function fetchMany(rt: RelayRuntime, request: RelayRequest): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const raw = request.body as { raw?: Buffer } | undefined;
  const body = raw?.raw?.length ? parseJson(raw.raw.toString('utf8')) : undefined;
  if (!isObject(body)) throw invalidRequest('invalid request body');
  const ids = body.ids ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string') || ids.length > MAX_IDS) throw invalidRequest('ids must be a list of task ids');
  if (body.action !== undefined && body.action !== null && typeof body.action !== 'string') throw invalidRequest('action must be a string');
  if (ids.length === 0) return ok([]);
  let query = rt.ctx.db
    .selectFrom('tasks')
    .selectAll()
    .where('user_id', '=', caller.payer.userId)
    .where('task_id', 'in', ids as string[]);
  if (typeof body.action === 'string' && body.action) query = query.where('action', '=', body.action.toUpperCase());
  const rows = await query.orderBy('id').execute();
  return ok(rows.map(taskDto));
}

export async function fetchOne(rt: RelayRuntime, request: RelayRequest, taskId: string): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const row = taskId ? await rt.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', caller.payer.userId).where('task_id', '=', taskId).executeTakeFirst() : undefined;
  if (!row) throw invalidRequest('task_not_exist');
  return ok(taskDto(row));
}
