/**
 * A fake Suno-API service on 127.0.0.1 (ephemeral port), speaking the wire format that
 * new-api's Suno channel (type 36) relays to, so the gateway's Suno relay and its task poller
 * can be tested end to end without Suno.
 *
 * - Auth: every `/suno/...` request needs `Authorization: Bearer <key>` (default `suno-key`),
 *   else 401 `{code:'unauthorized', message}`. `/audio/`, `/image/` and `/video/` stand in for
 *   Suno's CDN and need no key (clients download the clips' URLs directly).
 * - Submit: `POST /suno/submit/<MUSIC|LYRICS>` (any case) with gpt_description_prompt, prompt,
 *   mv, title, tags, continue_at, task_id, continue_clip_id, make_instrumental answers
 *   `{code:'success', message:'', data:'<uuid v4 task id>'}`; other actions get 400
 *   `{code:'error'}`. `fake.nextSubmit({status?, body})` queues other answers (strings are sent as
 *   text); a queued 200 `{code:'success'}` creates a task too (its `data` names it, or is set to
 *   the new id).
 * - Fetch: `POST /suno/fetch {ids, action?}` → `{code:'success', message:'', data:[known tasks]}`;
 *   `GET /suno/fetch/<id>` → `{code:'success', data:<task>}` or 200 `{code:'error',
 *   message:'task not exist'}`. `setFetchFailure('http500'|'badjson'|'code')` breaks the batch
 *   fetch (`code` = 200 with `{code:'error'}`) so a poller's skipped round can be tested.
 * - Tasks (`{task_id, action, status, fail_reason, submit_time, start_time, finish_time` in unix
 *   seconds, `progress, data}`, as new-api's TaskDto reads them) go SUBMITTED → QUEUED →
 *   IN_PROGRESS → SUCCESS | FAILURE by `queued(id)`, `progress(id, n)`, `succeed(id)`,
 *   `fail(id, reason)`. On success `data` is two complete clips for MUSIC (audio, image, video
 *   URLs on this server, chirp-v3 metadata) or one lyrics object for LYRICS. `autoFinishMs` makes
 *   tasks finish by themselves that long after submit (failing when the prompt has a word
 *   starting with "fail"), applied lazily whenever a task is read.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { type FakeHttpServer, type RecordedRequest, type RouteHandler, sendJson, sendText, startFakeHttpServer } from './http-fake';

export type SunoTaskStatus = 'NOT_START' | 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'FAILURE' | 'SUCCESS' | 'UNKNOWN';
export type SunoAction = 'MUSIC' | 'LYRICS';

export interface SunoClip {
  id: string;
  video_url: string;
  audio_url: string;
  image_url: string;
  image_large_url: string;
  major_model_version: string;
  model_name: string;
  status: string;
  title: string;
  text: string;
  metadata: {
    tags: string;
    prompt: string;
    gpt_description_prompt: string;
    audio_prompt_id: string | null;
    history: unknown[] | null;
    concat_history: unknown[] | null;
    type: string;
    duration: number | null;
    refund_credits: boolean | null;
    stream: boolean;
    error_type: string | null;
    error_message: string | null;
  };
  is_liked: boolean;
  user_id: string;
  is_trashed: boolean;
  reaction: null;
  created_at: string;
  play_count: number;
  upvote_count: number;
  is_public: boolean;
}

export interface SunoLyrics {
  id: string;
  status: string;
  title: string;
  text: string;
}

/** A task as the service serves it. */
export interface SunoTaskJson {
  task_id: string;
  action: SunoAction;
  status: SunoTaskStatus;
  fail_reason: string;
  /** Unix seconds (0 until set). */
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  /** null until started; clips (MUSIC) or lyrics (LYRICS) once there are any. */
  data: SunoClip[] | SunoLyrics | null;
}

export interface FakeSunoTask extends SunoTaskJson {
  /** The JSON body of the submit request, exactly as received ({} when none). */
  submitted: Record<string, unknown>;
  /** Ids of the two clips a MUSIC task makes (fixed at submit). */
  clipIds: string[];
}

export interface SunoSubmitReply {
  /** HTTP status (default 200). */
  status?: number;
  /** Objects are sent as JSON, strings as text. */
  body: unknown;
}

export type SunoFetchFailure = 'none' | 'http500' | 'badjson' | 'code';

export interface FakeSunoOptions {
  /** Accepted Bearer key (default `suno-key`). */
  key?: string;
  /** Tasks finish by themselves this long after submit (read lazily). */
  autoFinishMs?: number;
}

export interface FakeSuno {
  /** Base URL without a trailing slash (the channel's base URL). */
  url: string;
  key: string;
  requests: RecordedRequest[];
  /** Every created task by id. Reading here does not apply `autoFinishMs`; `task(id)` does. */
  tasks: Map<string, FakeSunoTask>;
  /** The task, after applying `autoFinishMs`. */
  task(id: string): FakeSunoTask | undefined;
  /** The task as the service would serve it (no `submitted`/`clipIds`). */
  taskJson(id: string): SunoTaskJson | undefined;
  /** Queues what the next submits answer (first in, first out). */
  nextSubmit(...replies: SunoSubmitReply[]): void;
  queued(taskId: string): void;
  progress(taskId: string, percent: number): void;
  succeed(taskId: string): void;
  fail(taskId: string, reason: string): void;
  setFetchFailure(mode: SunoFetchFailure): void;
  /** Adds or overrides a route (later routes win); no auth check is added. */
  route: FakeHttpServer['route'];
  close(): Promise<void>;
}

export const DEFAULT_SUNO_LYRICS = '[Verse]\nFake lights on a fake street\nA test that sings in four-four beat\n\n[Chorus]\nPoll me once, poll me twice\nSUCCESS tastes nice';

/** An ID3v2 header and one silent MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz). */
export const TINY_MP3 = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);

/** A baseline 1×1 grey JPEG: flat quantisation, one-code Huffman tables, one zero block. */
export const TINY_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  Buffer.from([0xff, 0xdb, 0x00, 0x43, 0x00]),
  Buffer.alloc(64, 1),
  Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]),
  Buffer.from([0xff, 0xc4, 0x00, 0x14, 0x00, 0x01, ...new Array<number>(15).fill(0), 0x00]),
  Buffer.from([0xff, 0xc4, 0x00, 0x14, 0x10, 0x01, ...new Array<number>(15).fill(0), 0x00]),
  Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
  Buffer.from([0x3f]),
  Buffer.from([0xff, 0xd9]),
]);

/** The first bytes of an MP4 (an `ftyp` box). */
export const TINY_MP4 = Buffer.from([0x00, 0x00, 0x00, 0x18, ...Buffer.from('ftypmp42'), 0x00, 0x00, 0x00, 0x00, ...Buffer.from('mp42isom')]);

const FINAL = new Set<SunoTaskStatus>(['SUCCESS', 'FAILURE']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const seconds = () => Math.floor(Date.now() / 1000);

export async function startFakeSuno(options: FakeSunoOptions = {}): Promise<FakeSuno> {
  const key = options.key ?? 'suno-key';
  const tasks = new Map<string, FakeSunoTask>();
  const queue: SunoSubmitReply[] = [];
  let fetchFailure: SunoFetchFailure = 'none';
  // Exact submit times (the wire has whole seconds), so autoFinishMs below a second works.
  const submitMs = new Map<string, number>();

  const server = await startFakeHttpServer((request, res) => {
    if (!authorized(request, res)) return;
    sendJson(res, 404, { code: 'error', message: `no route for ${request.method} ${request.path}` });
  });

  function authorized(request: RecordedRequest, res: ServerResponse): boolean {
    if (request.headers.authorization === `Bearer ${key}`) return true;
    sendJson(res, 401, { code: 'unauthorized', message: 'invalid or missing api key' });
    return false;
  }

  const authed =
    (handler: RouteHandler): RouteHandler =>
    (request, res) => {
      if (authorized(request, res)) return handler(request, res);
    };

  function mustGet(id: string): FakeSunoTask {
    const task = tasks.get(id);
    if (!task) throw new Error(`fake suno: no task ${id}`);
    return task;
  }

  function clips(task: FakeSunoTask, complete: boolean): SunoClip[] {
    const body = task.submitted;
    const custom = str(body.prompt);
    const history = str(body.continue_clip_id) ? [{ id: str(body.continue_clip_id), continue_at: typeof body.continue_at === 'number' ? body.continue_at : null, type: 'gen', source: 'web' }] : null;
    return task.clipIds.map((id, i) => ({
      id,
      video_url: complete ? `${server.url}/video/${id}.mp4` : '',
      audio_url: complete ? `${server.url}/audio/${id}.mp3` : `${server.url}/audio/stream-${id}.mp3`,
      image_url: `${server.url}/image/${id}.jpeg`,
      image_large_url: `${server.url}/image/large-${id}.jpeg`,
      major_model_version: 'v3',
      model_name: 'chirp-v3',
      status: complete ? 'complete' : 'streaming',
      title: str(body.title) || `Fake Song ${i + 1}`,
      text: custom || DEFAULT_SUNO_LYRICS,
      metadata: {
        tags: str(body.tags),
        prompt: custom || DEFAULT_SUNO_LYRICS,
        gpt_description_prompt: str(body.gpt_description_prompt),
        audio_prompt_id: null,
        history,
        concat_history: null,
        type: 'gen',
        duration: complete ? 120.5 : null,
        refund_credits: complete ? false : null,
        stream: true,
        error_type: null,
        error_message: null,
      },
      is_liked: false,
      user_id: '00000000-0000-4000-8000-000000000000',
      is_trashed: false,
      reaction: null,
      created_at: new Date(task.submit_time * 1000).toISOString(),
      play_count: 0,
      upvote_count: 0,
      is_public: false,
    }));
  }

  function queued(id: string): void {
    mustGet(id).status = 'QUEUED';
  }

  function progress(id: string, percent: number): void {
    const task = mustGet(id);
    task.status = 'IN_PROGRESS';
    if (!task.start_time) task.start_time = seconds();
    task.progress = `${percent}%`;
    if (task.action === 'MUSIC') task.data = clips(task, false);
  }

  function succeed(id: string): void {
    const task = mustGet(id);
    const now = seconds();
    task.status = 'SUCCESS';
    task.fail_reason = '';
    if (!task.start_time) task.start_time = now;
    task.finish_time = now;
    task.progress = '100%';
    task.data = task.action === 'MUSIC' ? clips(task, true) : { id: task.clipIds[0], status: 'complete', title: str(task.submitted.title) || 'Fake Lyrics', text: DEFAULT_SUNO_LYRICS };
  }

  function fail(id: string, reason: string): void {
    const task = mustGet(id);
    task.status = 'FAILURE';
    task.fail_reason = reason;
    task.finish_time = seconds();
  }

  /** Applies `autoFinishMs` to a task about to be read. */
  function settle(task: FakeSunoTask): FakeSunoTask {
    const after = options.autoFinishMs;
    if (after === undefined || FINAL.has(task.status)) return task;
    const at = submitMs.get(task.task_id) ?? task.submit_time * 1000;
    if (Date.now() - at < after) return task;
    const prompt = `${str(task.submitted.prompt)} ${str(task.submitted.gpt_description_prompt)}`;
    if (/\bfail/i.test(prompt)) fail(task.task_id, 'Banned prompt detected');
    else succeed(task.task_id);
    return task;
  }

  function taskJson(task: FakeSunoTask): SunoTaskJson {
    const { submitted: _submitted, clipIds: _clipIds, ...json } = task;
    return json;
  }

  function createTask(id: string, action: SunoAction, body: Record<string, unknown>, submittedAtMs: number): FakeSunoTask {
    const task: FakeSunoTask = {
      task_id: id,
      action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: Math.floor(submittedAtMs / 1000),
      start_time: 0,
      finish_time: 0,
      progress: '0%',
      data: null,
      submitted: body,
      clipIds: action === 'MUSIC' ? [randomUUID(), randomUUID()] : [randomUUID()],
    };
    submitMs.set(id, submittedAtMs);
    tasks.set(id, task);
    return task;
  }

  server.route(
    'POST',
    /\/suno\/submit\/([A-Za-z_-]+)/,
    authed((request, res) => {
      const body = isObject(request.json) ? request.json : {};
      const reply = queue.shift();
      const action = request.params[0].toUpperCase();
      if (reply) {
        const status = reply.status ?? 200;
        if (typeof reply.body === 'string') return sendText(res, status, reply.body);
        const answer = reply.body;
        if (status !== 200 || !isObject(answer) || answer.code !== 'success' || (action !== 'MUSIC' && action !== 'LYRICS')) return sendJson(res, status, answer);
        const id = typeof answer.data === 'string' && answer.data ? answer.data : randomUUID();
        if (!tasks.has(id)) createTask(id, action, body, Date.now());
        return sendJson(res, status, { ...answer, data: id });
      }
      if (action !== 'MUSIC' && action !== 'LYRICS') return sendJson(res, 400, { code: 'error', message: `unsupported action: ${request.params[0]}`, data: null });
      const task = createTask(randomUUID(), action, body, Date.now());
      sendJson(res, 200, { code: 'success', message: '', data: task.task_id });
    }),
  );
  server.route(
    'POST',
    '/suno/fetch',
    authed((request, res) => {
      if (fetchFailure === 'http500') return sendText(res, 500, 'Internal Server Error');
      if (fetchFailure === 'badjson') return sendText(res, 200, '{"code":"success","data":[{"task_id":', 'application/json');
      if (fetchFailure === 'code') return sendJson(res, 200, { code: 'error', message: 'fetch failed', data: null });
      const ids = isObject(request.json) && Array.isArray(request.json.ids) ? request.json.ids : [];
      const found: SunoTaskJson[] = [];
      for (const id of ids) {
        const task = typeof id === 'string' ? tasks.get(id) : undefined;
        if (task) found.push(taskJson(settle(task)));
      }
      sendJson(res, 200, { code: 'success', message: '', data: found });
    }),
  );
  server.route(
    'GET',
    /\/suno\/fetch\/([^/]+)/,
    authed((request, res) => {
      const task = tasks.get(request.params[0]);
      if (!task) return sendJson(res, 200, { code: 'error', message: 'task not exist', data: null });
      sendJson(res, 200, { code: 'success', message: '', data: taskJson(settle(task)) });
    }),
  );
  const media =
    (bytes: Buffer, contentType: string): RouteHandler =>
    (_request, res) => {
      res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.length) });
      res.end(bytes);
    };
  server.route('GET', /\/audio\/[^/]+\.mp3/, media(TINY_MP3, 'audio/mpeg'));
  server.route('GET', /\/image\/[^/]+\.jpeg/, media(TINY_JPEG, 'image/jpeg'));
  server.route('GET', /\/video\/[^/]+\.mp4/, media(TINY_MP4, 'video/mp4'));

  return {
    get url() {
      return server.url;
    },
    key,
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
    queued,
    progress,
    succeed,
    fail,
    setFetchFailure(mode) {
      fetchFailure = mode;
    },
    route: server.route,
    close: server.close,
  };
}
