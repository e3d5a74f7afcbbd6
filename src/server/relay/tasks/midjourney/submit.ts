/**
 * A drawing task submitted (docs/tasks.md#submitting), with the money moved exactly once:
 *
 *   caller → body → action and model → channel (the origin task's for actions on an earlier
 *   image) → price → hold (taken, row inserted) → upstream → confirm (charged) | release
 *
 * The upstream's answer goes back to the client with its status, codes 21/22 rewritten to 1
 * as the reference does. Codes 1, 21 and 22 on HTTP 200 mean accepted and charged; any other
 * answer keeps the row as a failed task and gives the price back; a network failure gives it
 * back and keeps no row (nothing reached the upstream).
 */
import type { RelayRequest } from '../../pipeline/exchange';
import type { RelayChannel } from '../../channels/channel-index';
import type { RelayRuntime } from '../../runtime';
import { CHANNEL_STATUS, CHANNEL_TYPE } from '../../../../shared/channel-types';
import { confirmTask, holdTask, releaseTask, type TaskPayer } from '../task-ledger';
import { taskLogContent, taskPrice } from '../task-price';
import { callTaskUpstream, isObject, parseJson } from '../task-upstream';
import { authenticateTaskCaller, channelFor } from '../task-caller';
import { actionOfCustomId, CHANGE_ACTIONS, FREE_ACTIONS, MJ_ACTIONS, modelOfAction, parseSimpleChange, type MjAction, type SubmitRoute } from './actions';
import { MjError, mjRefuse, MJ_UNKNOWN_ERROR } from './mj-error';

/** Seconds a submission may take upstream. */
const SUBMIT_TIMEOUT_MS = 60_000;
/** Mode prefixes of the Plus API (`/mj-fast/mj/...`), passed on to Plus channels. */

export interface TaskReply {
  status: number;
  body: string;
}

/** What the request asks for once its body is read. */
interface Intent {
  action: MjAction;
  /** mj_id of the earlier task the action works on. */
  originId?: string;
  prompt: string;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw mjRefuse('bind_request_body_failed');
  return value;
}

function readBody(request: RelayRequest): Record<string, unknown> {
  const raw = request.body as { raw?: Buffer } | undefined;
  const parsed = raw?.raw && raw.raw.length > 0 ? parseJson(raw.raw.toString('utf8')) : undefined;
  if (!isObject(parsed)) throw mjRefuse('bind_request_body_failed');
  return parsed;
}

/** The action and the origin task, with the reference's refusals. */
function intentOf(route: SubmitRoute, body: Record<string, unknown>): Intent {
  const prompt = stringField(body, 'prompt');
  if (route.action === MJ_ACTIONS.imagine && !prompt) throw mjRefuse('prompt_is_required');
  if (route.action === MJ_ACTIONS.swapFace) {
    if (!stringField(body, 'sourceBase64') || !stringField(body, 'targetBase64')) throw mjRefuse('sour_base64_and_target_base64_is_required');
    return { action: MJ_ACTIONS.swapFace, prompt: 'InsightFace' };
  }
  if (!route.origin) return { action: route.action as MjAction, prompt };

  if (route.action === 'from-content') {
    const content = stringField(body, 'content');
    if (!content) throw mjRefuse('content_is_required');
    const change = parseSimpleChange(content);
    if (!change) throw mjRefuse('content_parse_failed');
    return { action: change.action, originId: change.taskId, prompt };
  }
  const taskId = stringField(body, 'taskId');
  if (route.action === 'from-custom-id') {
    const customId = stringField(body, 'customId');
    if (!customId) throw mjRefuse('custom_id_is_required');
    const parsed = actionOfCustomId(customId);
    if (!parsed.ok) throw mjRefuse(parsed.description);
    if (!taskId) throw mjRefuse('task_id_is_required');
    return { action: parsed.value.action, originId: taskId, prompt };
  }
  if (!taskId) throw mjRefuse('task_id_is_required');
  if (route.action === 'from-body') {
    const action = stringField(body, 'action').toUpperCase();
    if (!action) throw mjRefuse('action_is_required');
    if (!CHANGE_ACTIONS.has(action)) throw mjRefuse(`unknown_action:${action}`);
    const index = body.index;
    if (index === undefined || index === null || index === 0) throw mjRefuse('index_is_required');
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 4) throw mjRefuse('bind_request_body_failed');
    return { action: action as MjAction, originId: taskId, prompt };
  }
  return { action: route.action, originId: taskId, prompt };
}

/** The channel of the origin task, which must be the caller's (and finished, when asked). */
async function originChannel(rt: RelayRuntime, userId: number, intent: Intent): Promise<{ channel: RelayChannel; prompt: string }> {
  const origin = await rt.ctx.db.selectFrom('midjourneys').select(['status', 'channel_id', 'prompt']).where('user_id', '=', userId).where('mj_id', '=', intent.originId!).executeTakeFirst();
  if (!origin) throw mjRefuse('task_not_found');
  if (rt.ctx.options.bool('MjActionCheckSuccessEnabled') && origin.status !== 'SUCCESS' && intent.action !== MJ_ACTIONS.modal) {
    throw mjRefuse('task_status_not_success');
  }
  const channel = rt.channels.byId(origin.channel_id);
  if (!channel) throw mjRefuse('get_channel_info_failed');
  if (channel.status !== CHANNEL_STATUS.enabled) throw mjRefuse('该任务所属渠道已被禁用');
  return { channel, prompt: origin.prompt ?? '' };
}

/** The body sent upstream: options decide what of the client's fields goes on. */
function upstreamBody(rt: RelayRuntime, body: Record<string, unknown>): string {
  const out = { ...body };
  if (!rt.ctx.options.bool('MjAccountFilterEnabled')) delete out.accountFilter;
  if (!rt.ctx.options.bool('MjNotifyEnabled')) delete out.notifyHook;
  if (rt.ctx.options.bool('MjModeClearEnabled') && typeof out.prompt === 'string') {
    out.prompt = out.prompt.replaceAll('--fast', '').replaceAll('--relax', '').replaceAll('--turbo', '');
  }
  return JSON.stringify(out);
}

/**
 * The upstream path: the route's own path under `/mj`. A mode prefix (`/mj-fast` …) is kept
 * for Plus channels, which serve those paths, and dropped for plain proxies, which do not.
 */
export function upstreamPath(channel: RelayChannel, routePath: string, mode: string | undefined): string {
  const keepMode = mode && channel.type === CHANNEL_TYPE.midjourneyPlus;
  return `${keepMode ? `/${mode}` : ''}/mj${routePath}`;
}

interface UpstreamResult {
  code: number;
  description: string;
  result: unknown;
  properties: unknown;
}

function resultOf(text: string): UpstreamResult | undefined {
  const parsed = parseJson(text);
  if (!isObject(parsed) || typeof parsed.code !== 'number') return undefined;
  return { code: parsed.code, description: typeof parsed.description === 'string' ? parsed.description : '', result: parsed.result, properties: parsed.properties };
}

export async function submitMidjourney(rt: RelayRuntime, route: SubmitRoute, request: RelayRequest, mode: string | undefined): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const body = readBody(request);
  const intent = intentOf(route, body);
  const model = modelOfAction(intent.action);
  let channel = channelFor(rt, caller, model, 'midjourney');
  let prompt = intent.prompt;
  if (intent.originId !== undefined) ({ channel, prompt } = await originChannel(rt, caller.payer.userId, intent));

  const price = taskPrice(rt.ctx, model, caller.payer.group);
  const amount = FREE_ACTIONS.has(intent.action) ? 0 : price.quota;
  const startedAt = Date.now();
  const held = await holdTask(rt, 'midjourneys', caller.payer, amount, {
    user_id: caller.payer.userId,
    action: intent.action,
    prompt,
    submit_time: startedAt,
    start_time: intent.action === MJ_ACTIONS.swapFace ? startedAt : 0,
    progress: '0%',
    channel_id: channel.id,
  });
  if (!held.ok) throw mjRefuse('quota_not_enough');

  let answer;
  try {
    answer = await callTaskUpstream(channel.baseUrl + upstreamPath(channel, route.path, mode), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mj-api-secret': channel.key },
      body: upstreamBody(rt, body),
      timeoutMs: SUBMIT_TIMEOUT_MS,
      dispatcher: rt.pools.proxyDispatcher(channel.proxy),
    });
  } catch (err) {
    await releaseTask(rt, 'midjourneys', held.id, caller.payer, amount, 'remove');
    rt.log.warn(`midjourney submit to channel #${channel.id} failed: ${err instanceof Error ? err.message : String(err)}`);
    throw new MjError(MJ_UNKNOWN_ERROR, 'do_request_failed');
  }
  const result = answer.text ? resultOf(answer.text) : undefined;
  if (!result) {
    await releaseTask(rt, 'midjourneys', held.id, caller.payer, amount, 'remove');
    throw new MjError(MJ_UNKNOWN_ERROR, answer.text ? 'unmarshal_response_body_failed' : 'empty_response_body');
  }
  return settleSubmission(rt, { id: held.id, payer: caller.payer, amount, channel, intent, price, startedAt }, answer.status, answer.text, result);
}

interface Submission {
  id: number;
  payer: TaskPayer;
  amount: number;
  channel: RelayChannel;
  intent: Intent;
  price: ReturnType<typeof taskPrice>;
  startedAt: number;
}

/** Charges or gives back by the upstream's answer, and answers the client. */
async function settleSubmission(rt: RelayRuntime, s: Submission, status: number, text: string, result: UpstreamResult): Promise<TaskReply> {
  const { intent } = s;
  const now = Date.now();
  const mjId = typeof result.result === 'string' ? result.result : '';
  const accepted = status === 200 && (intent.action === MJ_ACTIONS.swapFace ? result.code === 1 : result.code === 1 || result.code === 21 || result.code === 22);
  const fields: Record<string, unknown> = {
    code: result.code,
    mj_id: mjId.slice(0, 191),
    description: result.description,
    properties: isObject(result.properties) ? JSON.stringify(result.properties) : '',
  };
  let body = text;
  if (result.code === 21) {
    const props = isObject(result.properties) ? result.properties : {};
    if (typeof props.imageUrl === 'string' && typeof props.status === 'string') {
      fields.image_url = props.imageUrl;
      fields.status = props.status;
      if (props.status === 'SUCCESS') Object.assign(fields, { progress: '100%', start_time: now, finish_time: now, code: 1 });
    }
    if (!FREE_ACTIONS.has(intent.action)) body = body.replaceAll('"code":21', '"code":1');
  }
  if (result.code === 22) body = body.replaceAll('"code":22', '"code":1');
  if (intent.action === MJ_ACTIONS.upload && result.code === 1) {
    const urls = Array.isArray(result.result) ? result.result.filter((u): u is string => typeof u === 'string') : [];
    Object.assign(fields, { status: 'SUCCESS', progress: '100%', finish_time: now, ...(urls[0] ? { image_url: urls[0] } : {}) });
  }
  if (result.code === 3) noAccountLeft(rt, s.channel);

  if (accepted) {
    if (fields.status === undefined) fields.status = 'SUBMITTED';
    await confirmTask(
      rt,
      'midjourneys',
      s.id,
      s.payer,
      {
        amount: s.amount,
        channelId: s.channel.id,
        modelName: s.price.modelName,
        content: taskLogContent(s.price, intent.action, intent.action === MJ_ACTIONS.swapFace ? undefined : mjId),
        other: { model_price: s.price.price, group_ratio: s.price.groupRatio, admin_info: { use_channel: [String(s.channel.id)] } },
        useTime: Math.floor((now - s.startedAt) / 1000),
      },
      fields,
    );
  } else {
    const reason = result.description || `HTTP ${status}`;
    await releaseTask(rt, 'midjourneys', s.id, s.payer, s.amount, { ...fields, status: 'FAILURE', progress: '100%', fail_reason: reason, finish_time: now });
  }
  return { status, body };
}

/** Code 3, no account instance left: the channel is disabled when it allows it (docs/tasks.md#submitting). */
function noAccountLeft(rt: RelayRuntime, channel: RelayChannel): void {
  if (channel.autoBan && rt.ctx.options.bool('AutomaticDisableChannelEnabled')) rt.health.disable(channel, 'No available account instance');
}
