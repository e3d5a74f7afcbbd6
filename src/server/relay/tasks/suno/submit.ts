/**
 * A music task submitted (docs/tasks.md#suno), with the money moved exactly once:
 * caller → body → action → channel (the earlier task's for a continuation) → price → hold →
 * upstream `POST {base}/suno/submit/<ACTION>` → confirm (charged, upstream answer passed on)
 * | release (nothing kept: the upstream did not take the task).
 */
import type { RelayRequest } from '../../pipeline/exchange';
import type { RelayChannel } from '../../channels/channel-index';
import type { RelayRuntime } from '../../runtime';
import { CHANNEL_STATUS } from '../../../../shared/channel-types';
import { confirmTask, holdTask, releaseTask } from '../task-ledger';
import { taskLogContent, taskPrice } from '../task-price';
import { callTaskUpstream, isObject, parseJson } from '../task-upstream';
import { authenticateTaskCaller, channelFor } from '../task-caller';
import type { TaskReply } from '../midjourney/submit';
import { invalidRequest, SunoError } from './task-error';
import { nowSeconds } from '../../../../shared/time';

const SUBMIT_TIMEOUT_MS = 60_000;
export const SUNO_ACTIONS = { music: 'MUSIC', lyrics: 'LYRICS' } as const;
const DEFAULT_MV = 'chirp-v3-0';

/** The request fields the Suno API takes, each checked for its type; others are dropped. */
const STRING_FIELDS = ['gpt_description_prompt', 'prompt', 'mv', 'title', 'tags', 'task_id', 'continue_clip_id'] as const;

function readSubmitBody(request: RelayRequest): Record<string, unknown> {
  const raw = request.body as { raw?: Buffer } | undefined;
  const parsed = raw?.raw && raw.raw.length > 0 ? parseJson(raw.raw.toString('utf8')) : {};
  if (!isObject(parsed)) throw invalidRequest('invalid request body');
  const out: Record<string, unknown> = {};
  for (const name of STRING_FIELDS) {
    const v = parsed[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw invalidRequest(`${name} must be a string`);
    if (v !== '') out[name] = v;
  }
  const at = parsed.continue_at;
  if (at !== undefined && at !== null) {
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) throw invalidRequest('continue_at must be a non-negative number');
    if (at !== 0) out.continue_at = at;
  }
  const instrumental = parsed.make_instrumental;
  if (instrumental !== undefined && instrumental !== null && typeof instrumental !== 'boolean') throw invalidRequest('make_instrumental must be a boolean');
  out.make_instrumental = instrumental === true;
  return out;
}

async function continuationChannel(rt: RelayRuntime, userId: number, taskId: string): Promise<RelayChannel> {
  const origin = await rt.ctx.db.selectFrom('tasks').select(['channel_id']).where('user_id', '=', userId).where('task_id', '=', taskId).where('platform', '=', 'suno').executeTakeFirst();
  if (!origin) throw invalidRequest('task_origin_not_exist');
  const channel = rt.channels.byId(origin.channel_id);
  if (!channel || channel.status !== CHANNEL_STATUS.enabled) throw new SunoError(400, 'invalid_request', '该任务所属渠道已被禁用');
  return channel;
}

export async function submitSuno(rt: RelayRuntime, request: RelayRequest, actionParam: string): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const action = actionParam.toUpperCase();
  if (action !== SUNO_ACTIONS.music && action !== SUNO_ACTIONS.lyrics) throw invalidRequest('invalid_action');
  const body = readSubmitBody(request);
  if (action === SUNO_ACTIONS.music && !body.mv) body.mv = DEFAULT_MV;
  if (action === SUNO_ACTIONS.lyrics && !body.prompt) throw invalidRequest('prompt_empty');
  const model = `suno_${action.toLowerCase()}`;
  let channel = channelFor(rt, caller, model, 'suno');
  if (body.continue_clip_id) {
    if (!body.task_id) throw invalidRequest('task id is empty');
    channel = await continuationChannel(rt, caller.payer.userId, body.task_id as string);
  }

  const price = taskPrice(rt.ctx, model, caller.payer.group);
  const nowS = nowSeconds();
  const startedAt = Date.now();
  const held = await holdTask(rt, 'tasks', caller.payer, price.quota, {
    user_id: caller.payer.userId,
    created_at: nowS,
    updated_at: nowS,
    platform: 'suno',
    action,
    status: '',
    progress: '0%',
    submit_time: nowS,
    channel_id: channel.id,
    properties: JSON.stringify({ input: body.prompt ?? body.gpt_description_prompt ?? '' }),
  });
  if (!held.ok) throw new SunoError(403, 'quota_not_enough', 'user quota is not enough');

  let answer;
  try {
    answer = await callTaskUpstream(`${channel.baseUrl}/suno/submit/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${channel.key}` },
      body: JSON.stringify(body),
      timeoutMs: SUBMIT_TIMEOUT_MS,
      dispatcher: rt.pools.proxyDispatcher(channel.proxy),
    });
  } catch (err) {
    await releaseTask(rt, 'tasks', held.id, caller.payer, price.quota, 'remove');
    rt.log.warn(`suno submit to channel #${channel.id} failed: ${err instanceof Error ? err.message : String(err)}`);
    throw new SunoError(500, 'do_request_failed', '请求上游地址失败');
  }
  const reply = answer.status === 200 ? parseJson(answer.text) : undefined;
  const taskId = isObject(reply) && reply.code === 'success' && typeof reply.data === 'string' && reply.data ? reply.data : undefined;
  if (!taskId) {
    await releaseTask(rt, 'tasks', held.id, caller.payer, price.quota, 'remove');
    if (answer.status !== 200) throw new SunoError(answer.status >= 400 ? answer.status : 502, 'fail_to_fetch_task', answer.text.slice(0, 2000) || `HTTP ${answer.status}`);
    // A refusal in the upstream's words; a "success" naming no task is an unusable answer
    // (never passed on as code success on an error status).
    const refusal = isObject(reply) && typeof reply.code === 'string' && reply.code && reply.code !== 'success' ? reply : undefined;
    if (!refusal) throw new SunoError(500, 'unmarshal_response_body_failed', 'unusable upstream answer');
    throw new SunoError(500, refusal.code as string, typeof refusal.message === 'string' ? refusal.message : 'unusable upstream answer');
  }
  await confirmTask(
    rt,
    'tasks',
    held.id,
    caller.payer,
    {
      amount: price.quota,
      channelId: channel.id,
      modelName: model,
      content: taskLogContent(price, action),
      other: { model_price: price.price, group_ratio: price.groupRatio, admin_info: { use_channel: [String(channel.id)] } },
      useTime: Math.floor((Date.now() - startedAt) / 1000),
    },
    { task_id: taskId.slice(0, 191), status: 'NOT_START', updated_at: nowSeconds() },
  );
  return { status: 200, body: answer.text };
}
