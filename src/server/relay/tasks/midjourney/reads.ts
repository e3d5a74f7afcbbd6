/**
 * Everything on the Midjourney routes besides submitting (docs/tasks.md#routes): a task
 * by id, tasks by ids, a task's image seed from its channel, the notify callback, and the
 * image proxy.
 *
 * The callback may only touch the caller's own tasks, and an image address it brings must be
 * http(s). The image proxy fetches a task's image from the task's own channel (an address the
 * operator configured) as it is; any other address only through a connection that cannot
 * reach loopback, private or metadata addresses (the callback's addresses come from users).
 */
import type { ServerResponse } from 'node:http';
import { request as undiciRequest } from 'undici';
import type { RelayRequest } from '../../pipeline/exchange';
import type { RelayRuntime } from '../../runtime';
import { CHANNEL_STATUS } from '../../../../shared/channel-types';
import { hasLiteralPrivateHost, publicOnlyAgent } from '../../../plumbing/public-address';
import { refundTask, updateTask } from '../task-ledger';
import { callTaskUpstream, isObject, parseJson } from '../task-upstream';
import { authenticateTaskCaller } from '../task-caller';
import { mjRefuse } from './mj-error';
import { taskView } from './views';
import type { TaskReply } from './submit';
import { drawingRefundText, failureOf } from './progress';

const IMAGE_SEED_TIMEOUT_MS = 30_000;
const IMAGE_TIMEOUT_MS = 60_000;

function json(status: number, value: unknown): TaskReply {
  return { status, body: JSON.stringify(value) };
}

async function ownTask(rt: RelayRuntime, userId: number, mjId: string) {
  return rt.ctx.db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).where('mj_id', '=', mjId).executeTakeFirst();
}

export async function fetchTask(rt: RelayRuntime, request: RelayRequest, mjId: string): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const row = mjId ? await ownTask(rt, caller.payer.userId, mjId) : undefined;
  if (!row) throw mjRefuse('task_no_found');
  return json(200, taskView(rt.ctx, row));
}

/** At most this many ids per query (clients poll a page of tasks at a time). */
const MAX_IDS = 1000;

export async function listByCondition(rt: RelayRuntime, request: RelayRequest): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const raw = request.body as { raw?: Buffer } | undefined;
  const body = raw?.raw?.length ? parseJson(raw.raw.toString('utf8')) : undefined;
  const ids = isObject(body) ? body.ids : undefined;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string') || ids.length > MAX_IDS) throw mjRefuse('do_request_failed');
  if (ids.length === 0) return json(200, []);
  const rows = await rt.ctx.db.selectFrom('midjourneys').selectAll().where('user_id', '=', caller.payer.userId).where('mj_id', 'in', ids).orderBy('id').execute();
  return json(
    200,
    rows.map((row) => taskView(rt.ctx, row)),
  );
}

export async function imageSeed(rt: RelayRuntime, request: RelayRequest, mjId: string, upstreamPath: string): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const row = mjId ? await ownTask(rt, caller.payer.userId, mjId) : undefined;
  if (!row) throw mjRefuse('task_no_found');
  const channel = rt.channels.byId(row.channel_id);
  if (!channel) throw mjRefuse('get_channel_info_failed');
  if (channel.status !== CHANNEL_STATUS.enabled) throw mjRefuse('该任务所属渠道已被禁用');
  try {
    const answer = await callTaskUpstream(channel.baseUrl + upstreamPath, {
      method: 'GET',
      headers: { accept: 'application/json', 'mj-api-secret': channel.key },
      timeoutMs: IMAGE_SEED_TIMEOUT_MS,
      dispatcher: rt.pools.proxyDispatcher(channel.proxy),
    });
    return { status: answer.status, body: answer.text };
  } catch {
    throw mjRefuse('do_request_failed');
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The proxy's callback (`notifyHook`), under token auth: the caller's own task with this id
 * takes the reported progress; a reported failure refunds it, exactly once.
 */
export async function notify(rt: RelayRuntime, request: RelayRequest): Promise<TaskReply> {
  const caller = await authenticateTaskCaller(rt, request);
  const raw = request.body as { raw?: Buffer } | undefined;
  const body = raw?.raw?.length ? parseJson(raw.raw.toString('utf8')) : undefined;
  if (!isObject(body) || typeof body.id !== 'string' || !body.id) throw mjRefuse('bind_request_body_failed');
  const row = await ownTask(rt, caller.payer.userId, body.id);
  if (!row) throw mjRefuse('midjourney_task_not_found');
  const text = (name: string, limit = 65535): string | undefined => (typeof body[name] === 'string' ? (body[name] as string).slice(0, limit) : undefined);
  const time = (name: string): number | undefined => (typeof body[name] === 'number' && Number.isSafeInteger(body[name]) && (body[name] as number) >= 0 ? (body[name] as number) : undefined);
  const imageUrl = text('imageUrl');
  const fields = {
    progress: text('progress', 30),
    prompt_en: text('promptEn'),
    state: text('state'),
    start_time: time('startTime'),
    finish_time: time('finishTime'),
    image_url: imageUrl !== undefined && (imageUrl === '' || isHttpUrl(imageUrl)) ? imageUrl : undefined,
    status: text('status', 20),
    fail_reason: text('failReason'),
  };
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const next = { ...row, ...changes };
  if (failureOf(next)) {
    await refundTask(rt.ctx, 'midjourneys', { id: row.id, userId: row.user_id, tokenId: row.token_id, quota: Number(row.quota) }, { ...changes, progress: '100%' }, drawingRefundText(row.mj_id));
  } else {
    await updateTask(rt.ctx, 'midjourneys', row.id, next.status === 'SUCCESS' ? { ...changes, progress: '100%' } : changes, { unfinishedOnly: true });
  }
  return json(200, { code: 1, description: '成功', result: row.mj_id });
}

/** Streams a task's image (no auth, as in the reference: the id is the secret). */
export async function relayImage(rt: RelayRuntime, mjId: string, res: ServerResponse): Promise<TaskReply | undefined> {
  const row = mjId ? await rt.ctx.db.selectFrom('midjourneys').select(['image_url', 'channel_id']).where('mj_id', '=', mjId).executeTakeFirst() : undefined;
  if (!row || !row.image_url || !isHttpUrl(row.image_url)) return json(400, { error: 'midjourney_task_not_found' });
  const url = new URL(row.image_url);
  const channel = rt.channels.byId(row.channel_id);
  const trusted = channel !== undefined && channel.baseUrl !== '' && new URL(channel.baseUrl).origin === url.origin;
  if (!trusted && hasLiteralPrivateHost(url)) return json(400, { error: 'http_get_image_failed' });
  let answer;
  try {
    // The channel's own host is reached as the channel is (its proxy); any other only at a public address.
    const dispatcher = trusted ? rt.pools.proxyDispatcher(channel.proxy) : publicOnlyAgent();
    answer = await undiciRequest(url, { method: 'GET', signal: AbortSignal.timeout(IMAGE_TIMEOUT_MS), ...(dispatcher ? { dispatcher } : {}) });
  } catch {
    return json(500, { error: 'http_get_image_failed' });
  }
  if (answer.statusCode !== 200) {
    const text = await answer.body.text().catch(() => '');
    return json(answer.statusCode, { error: text.slice(0, 2000) });
  }
  const type = answer.headers['content-type'];
  res.writeHead(200, { 'content-type': (Array.isArray(type) ? type[0] : type) || 'image/jpeg', 'cache-control': 'private, max-age=3600' });
  for await (const chunk of answer.body) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
  return undefined;
}
