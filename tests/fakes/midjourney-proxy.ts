/**
 * A fake midjourney-proxy ("MJ Plus" API) on 127.0.0.1 (ephemeral port), speaking the wire
 * format that one-api / new-api's Midjourney channel relays to, so the gateway's MJ relay and
 * its task poller can be tested end to end without Discord.
 *
 * - Auth: every `/mj/...` request needs `mj-api-secret: <secret>` (default `mj-secret`), else
 *   401 `{code:401, description:'unauthorized'}`. `/attachments/...` stands in for Discord's
 *   CDN and needs no secret (the gateway's image proxy fetches it like a browser would).
 * - Submit: `POST /mj/submit/<action>` (imagine, change, simple-change, describe, blend, shorten,
 *   modal, action, video, edits, upload-discord-images, ...) and `POST /mj/insight-face/swap`
 *   answer `{code:1, description:'提交成功', result:'<16-digit id>', properties:{discordInstanceId}}`
 *   and create a task; upload-discord-images answers `result: ['<url>/attachments/up-<n>.png', ...]`
 *   and creates none. `fake.nextSubmit({status?, body})` queues other answers (codes 21 exists,
 *   22 queued, 23 queue full, 24 banned words, 3 no account, 4 errors, HTTP 500): a queued reply
 *   with code 1, 21 or 22 and HTTP 200 creates a task too (its `result` is set to the task id,
 *   or names the task when the body gives one; code 21 copies `properties.status`/`imageUrl`).
 * - Tasks: `GET /mj/task/<id>/fetch` (200 `null` for unknown ids, as real proxies do),
 *   `POST /mj/task/list-by-condition {ids}` (known tasks only), `GET /mj/task/<id>/image-seed`.
 *   A task's action is derived as the proxy does: from the path, `/submit/change`'s
 *   `body.action`, `simple-change`'s `"<id> U1"` content, or `/submit/action`'s customId
 *   (`MJ::JOB::upsample::2::<hash>` → UPSCALE, variation → VARIATION, reroll → REROLL,
 *   pan_ → PAN, Outpaint/CustomZoom → ZOOM, Inpaint → INPAINT).
 * - Control: `progress(id, n)`, `succeed(id)` (image `<url>/attachments/<id>.png`, real-looking
 *   buttons), `fail(id, reason)`; `autoFinishMs` makes tasks finish by themselves that long after
 *   submit (failing with 'Banned prompt detected' when the prompt has a word starting with
 *   "fail"), applied lazily whenever a task is read. `setListFailure('http500'|'badjson')`
 *   breaks list-by-condition so a poller's skipped round can be tested.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { type FakeHttpServer, type RecordedRequest, type RouteHandler, sendJson, sendText, startFakeHttpServer } from './http-fake';

export type MjTaskStatus = 'NOT_START' | 'SUBMITTED' | 'MODAL' | 'IN_PROGRESS' | 'FAILURE' | 'SUCCESS' | 'CANCEL';

export interface MjButton {
  customId: string;
  emoji: string;
  label: string;
  type: number;
  style: number;
}

/** A task as the proxy serves it from `/mj/task/<id>/fetch`. */
export interface MjTaskJson {
  id: string;
  action: string;
  /** The button pressed (action/simple-change/change submits), as the proxy keeps it. */
  customId: string;
  botType: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  /** Epoch milliseconds. */
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  imageUrl: string;
  status: MjTaskStatus;
  progress: string;
  failReason: string;
  buttons: MjButton[];
  properties: Record<string, unknown>;
}

/** A kept task: its wire JSON plus what was submitted. */
export interface FakeMjTask extends MjTaskJson {
  /** The JSON body of the submit request, exactly as received ({} when none). */
  submitted: Record<string, unknown>;
  /** The submit path, e.g. `/mj/submit/imagine`. */
  submitPath: string;
}

export interface MjSubmitReply {
  /** HTTP status (default 200). */
  status?: number;
  /** Objects are sent as JSON, strings as text. */
  body: unknown;
}

export type MjListFailure = 'none' | 'http500' | 'badjson';

export interface FakeMidjourneyOptions {
  /** Accepted `mj-api-secret` (default `mj-secret`). */
  secret?: string;
  /** Tasks finish by themselves this long after submit (read lazily). */
  autoFinishMs?: number;
}

export interface FakeMidjourney {
  /** Base URL without a trailing slash (the channel's base URL). */
  url: string;
  secret: string;
  requests: RecordedRequest[];
  /** Every created task by id. Reading here does not apply `autoFinishMs`; `task(id)` does. */
  tasks: Map<string, FakeMjTask>;
  /** The task, after applying `autoFinishMs`. */
  task(id: string): FakeMjTask | undefined;
  /** The task as the proxy would serve it (no `submitted`/`submitPath`). */
  taskJson(id: string): MjTaskJson | undefined;
  /** Queues what the next submits answer (first in, first out). */
  nextSubmit(...replies: MjSubmitReply[]): void;
  progress(id: string, percent: number): void;
  succeed(id: string): void;
  fail(id: string, reason: string): void;
  setListFailure(mode: MjListFailure): void;
  /** Adds or overrides a route (later routes win); no auth check is added. */
  route: FakeHttpServer['route'];
  close(): Promise<void>;
}

export const MJ_DISCORD_INSTANCE_ID = '1118138338562560102';
export const MJ_IMAGE_SEED = '1234567890';

/** A valid 1×1 RGBA PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Actions whose result is a 2×2 grid (U1–U4, V1–V4, reroll buttons). */
const GRID_ACTIONS = new Set(['IMAGINE', 'VARIATION', 'REROLL', 'BLEND', 'PAN', 'ZOOM', 'INPAINT', 'MODAL']);
const FINAL = new Set<MjTaskStatus>(['SUCCESS', 'FAILURE', 'CANCEL']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The proxy's action for a button's customId. */
export function mjActionOfCustomId(customId: string): string {
  if (customId.includes('::upsample')) return 'UPSCALE';
  if (customId.includes('variation')) return 'VARIATION';
  if (customId.includes('::reroll')) return 'REROLL';
  if (customId.includes('::pan_')) return 'PAN';
  if (customId.includes('Outpaint') || customId.includes('CustomZoom')) return 'ZOOM';
  if (customId.includes('Inpaint')) return 'INPAINT';
  if (customId.includes('animate')) return 'VIDEO';
  return 'ACTION';
}

function gridButtons(hash: string): MjButton[] {
  const buttons: MjButton[] = [];
  for (let n = 1; n <= 4; n++) buttons.push({ customId: `MJ::JOB::upsample::${n}::${hash}`, emoji: '', label: `U${n}`, type: 2, style: 2 });
  buttons.push({ customId: `MJ::JOB::reroll::0::${hash}::SOLO`, emoji: '🔄', label: '', type: 2, style: 2 });
  for (let n = 1; n <= 4; n++) buttons.push({ customId: `MJ::JOB::variation::${n}::${hash}`, emoji: '', label: `V${n}`, type: 2, style: 2 });
  return buttons;
}

function upscaleButtons(hash: string): MjButton[] {
  return [
    { customId: `MJ::JOB::upsample_v6_2x_subtle::1::${hash}::SOLO`, emoji: '', label: 'Upscale (Subtle)', type: 2, style: 2 },
    { customId: `MJ::JOB::upsample_v6_2x_creative::1::${hash}::SOLO`, emoji: '', label: 'Upscale (Creative)', type: 2, style: 2 },
    { customId: `MJ::JOB::low_variation::1::${hash}::SOLO`, emoji: '🪄', label: 'Vary (Subtle)', type: 2, style: 2 },
    { customId: `MJ::JOB::high_variation::1::${hash}::SOLO`, emoji: '🪄', label: 'Vary (Strong)', type: 2, style: 2 },
    { customId: `MJ::Outpaint::50::1::${hash}::SOLO`, emoji: '🔍', label: 'Zoom Out 2x', type: 2, style: 2 },
    { customId: `MJ::CustomZoom::${hash}`, emoji: '🔍', label: 'Custom Zoom', type: 2, style: 2 },
    { customId: `MJ::JOB::pan_left::1::${hash}::SOLO`, emoji: '⬅️', label: '', type: 2, style: 2 },
    { customId: `MJ::JOB::pan_right::1::${hash}::SOLO`, emoji: '➡️', label: '', type: 2, style: 2 },
    { customId: `MJ::JOB::pan_up::1::${hash}::SOLO`, emoji: '⬆️', label: '', type: 2, style: 2 },
    { customId: `MJ::JOB::pan_down::1::${hash}::SOLO`, emoji: '⬇️', label: '', type: 2, style: 2 },
  ];
}

export async function startFakeMidjourney(options: FakeMidjourneyOptions = {}): Promise<FakeMidjourney> {
  const secret = options.secret ?? 'mj-secret';
  const tasks = new Map<string, FakeMjTask>();
  const queue: MjSubmitReply[] = [];
  let listFailure: MjListFailure = 'none';
  // Real ids are a millisecond timestamp and three more digits (16 digits).
  let nextId = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  let uploads = 0;

  const server = await startFakeHttpServer((request, res) => {
    if (!authorized(request, res)) return;
    sendJson(res, 404, { code: 404, description: `no route for ${request.method} ${request.path}` });
  });

  function authorized(request: RecordedRequest, res: ServerResponse): boolean {
    if (request.headers['mj-api-secret'] === secret) return true;
    sendJson(res, 401, { code: 401, description: 'unauthorized' });
    return false;
  }

  const authed =
    (handler: RouteHandler): RouteHandler =>
    (request, res) => {
      if (authorized(request, res)) return handler(request, res);
    };

  function newId(): string {
    let id = String(nextId++);
    while (tasks.has(id)) id = String(nextId++);
    return id;
  }

  function mustGet(id: string): FakeMjTask {
    const task = tasks.get(id);
    if (!task) throw new Error(`fake midjourney: no task ${id}`);
    return task;
  }

  function progress(id: string, percent: number): void {
    const task = mustGet(id);
    task.status = 'IN_PROGRESS';
    task.startTime ??= Date.now();
    task.progress = `${percent}%`;
  }

  function succeed(id: string): void {
    const task = mustGet(id);
    const hash = randomUUID();
    const now = Date.now();
    task.status = 'SUCCESS';
    task.progress = '100%';
    task.startTime ??= now;
    task.finishTime = now;
    task.failReason = '';
    task.imageUrl = `${server.url}/attachments/${id}.png`;
    task.buttons = GRID_ACTIONS.has(task.action) ? gridButtons(hash) : task.action === 'UPSCALE' ? upscaleButtons(hash) : [];
    if (task.action === 'DESCRIBE') {
      task.prompt = '1️⃣ a small fake picture, flat colour --ar 1:1\n\n2️⃣ one grey pixel, minimalism --ar 1:1';
      task.promptEn = task.prompt;
    }
    task.properties = { ...task.properties, messageHash: hash, messageId: String(nextId++), finalPrompt: task.promptEn || task.prompt };
  }

  function fail(id: string, reason: string): void {
    const task = mustGet(id);
    task.status = 'FAILURE';
    task.failReason = reason;
    task.finishTime = Date.now();
  }

  /** Applies `autoFinishMs` to a task about to be read. */
  function settle(task: FakeMjTask): FakeMjTask {
    const after = options.autoFinishMs;
    if (after === undefined || FINAL.has(task.status) || task.status === 'MODAL') return task;
    if (Date.now() - task.submitTime < after) return task;
    if (/\bfail/i.test(task.prompt)) fail(task.id, 'Banned prompt detected');
    else succeed(task.id);
    return task;
  }

  function taskJson(task: FakeMjTask): MjTaskJson {
    const { submitted: _submitted, submitPath: _submitPath, ...json } = task;
    return json;
  }

  /** What a submit would create: action, prompt, description, parent button. */
  function describeSubmit(kind: string, body: Record<string, unknown>): Pick<MjTaskJson, 'action' | 'prompt' | 'description' | 'customId'> {
    const parent = tasks.get(str(body.taskId));
    const parentPrompt = parent?.prompt ?? '';
    switch (kind) {
      case 'imagine': {
        const prompt = str(body.prompt);
        return { action: 'IMAGINE', prompt, description: `/imagine ${prompt}`, customId: '' };
      }
      case 'change': {
        const action = str(body.action).toUpperCase() || 'UPSCALE';
        const index = typeof body.index === 'number' ? body.index : 1;
        const label = action === 'REROLL' ? 'R' : `${action[0]}${index}`;
        return { action, prompt: parentPrompt, description: `/up ${str(body.taskId)} ${label}`, customId: '' };
      }
      case 'simple-change': {
        const [taskId = '', label = ''] = str(body.content).trim().split(/\s+/);
        const letter = label.charAt(0).toUpperCase();
        const action = letter === 'V' ? 'VARIATION' : letter === 'R' ? 'REROLL' : 'UPSCALE';
        return { action, prompt: tasks.get(taskId)?.prompt ?? '', description: `/up ${taskId} ${label}`, customId: '' };
      }
      case 'action': {
        const customId = str(body.customId);
        return { action: mjActionOfCustomId(customId), prompt: parentPrompt, description: `/up ${str(body.taskId)} ${customId}`, customId };
      }
      case 'modal': {
        const prompt = str(body.prompt) || parentPrompt;
        return { action: 'MODAL', prompt, description: `/modal ${str(body.taskId)}`, customId: parent?.customId ?? '' };
      }
      case 'describe':
        return { action: 'DESCRIBE', prompt: '', description: '/describe', customId: '' };
      case 'blend':
        return { action: 'BLEND', prompt: '', description: '/blend', customId: '' };
      case 'shorten': {
        const prompt = str(body.prompt);
        return { action: 'SHORTEN', prompt, description: `/shorten ${prompt}`, customId: '' };
      }
      case 'swap':
        return { action: 'SWAP_FACE', prompt: '', description: '/swap_face', customId: '' };
      default: {
        const prompt = str(body.prompt) || parentPrompt;
        const action = kind.toUpperCase().replace(/-/g, '_');
        return { action, prompt, description: `/${kind} ${prompt}`.trim(), customId: '' };
      }
    }
  }

  function createTask(id: string, path: string, kind: string, body: Record<string, unknown>): FakeMjTask {
    const what = describeSubmit(kind, body);
    const task: FakeMjTask = {
      id,
      ...what,
      botType: str(body.botType) || 'MID_JOURNEY',
      promptEn: what.prompt,
      state: typeof body.state === 'string' ? body.state : '',
      submitTime: Date.now(),
      startTime: null,
      finishTime: null,
      imageUrl: '',
      status: 'SUBMITTED',
      progress: '0%',
      failReason: '',
      buttons: [],
      properties: { discordInstanceId: MJ_DISCORD_INSTANCE_ID, discordChannelId: MJ_DISCORD_INSTANCE_ID },
      submitted: body,
      submitPath: path,
    };
    tasks.set(id, task);
    return task;
  }

  function submit(request: RecordedRequest, res: ServerResponse, kind: string): void {
    const body = isObject(request.json) ? request.json : {};
    const reply = queue.shift();
    if (reply) {
      const status = reply.status ?? 200;
      if (typeof reply.body === 'string') return sendText(res, status, reply.body);
      const answer = reply.body;
      if (kind === 'upload-discord-images' || status !== 200 || !isObject(answer) || ![1, 21, 22].includes(answer.code as number)) {
        return sendJson(res, status, answer);
      }
      const id = typeof answer.result === 'string' && answer.result ? answer.result : newId();
      if (!tasks.has(id)) {
        const task = createTask(id, request.path, kind, body);
        const props = isObject(answer.properties) ? answer.properties : {};
        if (answer.code === 21 && typeof props.status === 'string') {
          task.status = props.status as MjTaskStatus;
          if (typeof props.imageUrl === 'string') task.imageUrl = props.imageUrl;
          if (task.status === 'SUCCESS') {
            task.progress = '100%';
            task.startTime = task.finishTime = Date.now();
          }
        }
      }
      return sendJson(res, status, { ...answer, result: id });
    }
    if (kind === 'upload-discord-images') {
      const images = Array.isArray(body.base64Array) && body.base64Array.length > 0 ? body.base64Array.length : 1;
      const result = Array.from({ length: images }, () => `${server.url}/attachments/up-${++uploads}.png`);
      return sendJson(res, 200, { code: 1, description: '提交成功', result });
    }
    const task = createTask(newId(), request.path, kind, body);
    sendJson(res, 200, { code: 1, description: '提交成功', result: task.id, properties: { discordInstanceId: MJ_DISCORD_INSTANCE_ID } });
  }

  server.route(
    'POST',
    /\/mj\/submit\/([A-Za-z0-9_-]+)/,
    authed((request, res) => submit(request, res, request.params[0])),
  );
  server.route(
    'POST',
    '/mj/insight-face/swap',
    authed((request, res) => submit(request, res, 'swap')),
  );
  server.route(
    'GET',
    /\/mj\/task\/([^/]+)\/fetch/,
    authed((request, res) => {
      const task = tasks.get(request.params[0]);
      sendJson(res, 200, task ? taskJson(settle(task)) : null);
    }),
  );
  server.route(
    'POST',
    '/mj/task/list-by-condition',
    authed((request, res) => {
      if (listFailure === 'http500') {
        return sendJson(res, 500, { timestamp: new Date().toISOString(), status: 500, error: 'Internal Server Error', path: request.path });
      }
      if (listFailure === 'badjson') return sendText(res, 200, '[{"id":"', 'application/json');
      const ids = isObject(request.json) && Array.isArray(request.json.ids) ? request.json.ids : [];
      const found: MjTaskJson[] = [];
      for (const id of ids) {
        const task = typeof id === 'string' ? tasks.get(id) : undefined;
        if (task) found.push(taskJson(settle(task)));
      }
      sendJson(res, 200, found);
    }),
  );
  server.route(
    'GET',
    /\/mj\/task\/([^/]+)\/image-seed/,
    authed((request, res) => {
      const task = tasks.get(request.params[0]);
      if (!task) return sendJson(res, 200, { code: 4, description: '任务不存在' });
      if (settle(task).status !== 'SUCCESS') return sendJson(res, 200, { code: 4, description: '任务未完成' });
      sendJson(res, 200, { code: 1, description: '成功', result: MJ_IMAGE_SEED });
    }),
  );
  server.route('GET', /\/attachments\/[^/]+\.png/, (_request, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(TINY_PNG.length) });
    res.end(TINY_PNG);
  });

  return {
    get url() {
      return server.url;
    },
    secret,
    requests: server.requests,
    tasks,
    task(id) {
      const task = tasks.get(id);
      return task ? settle(task) : undefined;
    },
    taskJson(id) {
      const task = tasks.get(id);
      return task ? taskJson(settle(task)) : undefined;
    },
    nextSubmit(...replies) {
      queue.push(...replies);
    },
    progress,
    succeed,
    fail,
    setListFailure(mode) {
      listFailure = mode;
    },
    route: server.route,
    close: server.close,
  };
}
