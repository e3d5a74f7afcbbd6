// The task-service fakes (midjourney-proxy, Suno-API) behave as their wire formats say:
// auth refusal, submit, progress, success, failure, batch reads, queued replies, media.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeMidjourney, type FakeMidjourney, type MjTaskJson } from '../fakes/midjourney-proxy';
import { startFakeSuno, type FakeSuno, type SunoClip, type SunoLyrics, type SunoTaskJson } from '../fakes/suno';
import { sleep } from '../fakes/script';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

async function mj(options?: Parameters<typeof startFakeMidjourney>[0]): Promise<FakeMidjourney> {
  const fake = await startFakeMidjourney(options);
  closers.push(fake.close);
  return fake;
}

async function suno(options?: Parameters<typeof startFakeSuno>[0]): Promise<FakeSuno> {
  const fake = await startFakeSuno(options);
  closers.push(fake.close);
  return fake;
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const MJ = { 'mj-api-secret': 'mj-secret' };
const SUNO = { authorization: 'Bearer suno-key' };

describe('fake midjourney-proxy', () => {
  it('refuses a missing or wrong secret', async () => {
    const fake = await mj();
    expect((await post(`${fake.url}/mj/submit/imagine`, {}, { prompt: 'cat' })).status).toBe(401);
    const wrong = await fetch(`${fake.url}/mj/task/1/fetch`, { headers: { 'mj-api-secret': 'nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 401 });
    expect(fake.tasks.size).toBe(0);
  });

  it('submits, progresses and succeeds an imagine task, then an upscale from its button', async () => {
    const fake = await mj();
    const res = await post(`${fake.url}/mj/submit/imagine`, MJ, { prompt: 'a red cat', state: 's1', accountFilter: { modes: ['FAST'] } });
    const submit = (await res.json()) as { code: number; result: string; properties: Record<string, unknown> };
    expect(submit).toMatchObject({ code: 1, description: '提交成功', properties: { discordInstanceId: '1118138338562560102' } });
    expect(submit.result).toMatch(/^\d{16,}$/);
    const id = submit.result;
    expect(fake.tasks.get(id)).toMatchObject({ action: 'IMAGINE', status: 'SUBMITTED', progress: '0%', state: 's1', description: '/imagine a red cat' });
    expect(fake.tasks.get(id)?.submitted).toMatchObject({ accountFilter: { modes: ['FAST'] } });

    fake.progress(id, 42);
    let task = (await (await fetch(`${fake.url}/mj/task/${id}/fetch`, { headers: MJ })).json()) as MjTaskJson;
    expect(task).toMatchObject({ id, status: 'IN_PROGRESS', progress: '42%' });
    expect(task.startTime).toBeTypeOf('number');
    expect(task).not.toHaveProperty('submitted');

    fake.succeed(id);
    task = (await (await fetch(`${fake.url}/mj/task/${id}/fetch`, { headers: MJ })).json()) as MjTaskJson;
    expect(task).toMatchObject({ status: 'SUCCESS', progress: '100%', imageUrl: `${fake.url}/attachments/${id}.png` });
    expect(task.buttons.map((b) => b.label)).toEqual(['U1', 'U2', 'U3', 'U4', '', 'V1', 'V2', 'V3', 'V4']);
    const image = await fetch(task.imageUrl);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const seed = await (await fetch(`${fake.url}/mj/task/${id}/image-seed`, { headers: MJ })).json();
    expect(seed).toEqual({ code: 1, description: '成功', result: '1234567890' });

    const upscale = (await (await post(`${fake.url}/mj/submit/action`, MJ, { taskId: id, customId: task.buttons[1].customId })).json()) as { result: string };
    expect(fake.tasks.get(upscale.result)).toMatchObject({ action: 'UPSCALE', prompt: 'a red cat' });
    const seedPending = await (await fetch(`${fake.url}/mj/task/${upscale.result}/image-seed`, { headers: MJ })).json();
    expect(seedPending).toMatchObject({ code: 4 });
  });

  it('fails a task, lists known ids only, answers null for unknown ids, and breaks the list on demand', async () => {
    const fake = await mj();
    const a = ((await (await post(`${fake.url}/mj/submit/blend`, MJ, { base64Array: ['x', 'y'] })).json()) as { result: string }).result;
    const b = ((await (await post(`${fake.url}/mj/submit/change`, MJ, { taskId: a, action: 'VARIATION', index: 2 })).json()) as { result: string }).result;
    fake.progress(a, 30);
    fake.fail(a, 'Job action restricted');
    const list = (await (await post(`${fake.url}/mj/task/list-by-condition`, MJ, { ids: [a, 'nope', b] })).json()) as MjTaskJson[];
    expect(list.map((t) => [t.id, t.action, t.status])).toEqual([
      [a, 'BLEND', 'FAILURE'],
      [b, 'VARIATION', 'SUBMITTED'],
    ]);
    expect(list[0]).toMatchObject({ failReason: 'Job action restricted', progress: '30%' });
    expect(list[0].finishTime).toBeTypeOf('number');

    const unknown = await fetch(`${fake.url}/mj/task/999/fetch`, { headers: MJ });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toBeNull();

    fake.setListFailure('http500');
    expect((await post(`${fake.url}/mj/task/list-by-condition`, MJ, { ids: [a] })).status).toBe(500);
    fake.setListFailure('badjson');
    await expect((await post(`${fake.url}/mj/task/list-by-condition`, MJ, { ids: [a] })).json()).rejects.toThrow();
  });

  it('answers queued replies, uploads and face swaps', async () => {
    const fake = await mj();
    fake.nextSubmit(
      { body: { code: 24, description: '可能包含敏感词', properties: { promptEn: 'x', bannedWord: 'x' } } },
      { body: { code: 22, description: '排队中，前面还有1个任务' } },
      { status: 500, body: 'upstream exploded' },
    );
    expect(await (await post(`${fake.url}/mj/submit/imagine`, MJ, { prompt: 'x' })).json()).toMatchObject({ code: 24 });
    const queued = (await (await post(`${fake.url}/mj/submit/imagine`, MJ, { prompt: 'y' })).json()) as { code: number; result: string };
    expect(queued.code).toBe(22);
    expect(fake.tasks.get(queued.result)?.prompt).toBe('y');
    const broken = await post(`${fake.url}/mj/submit/imagine`, MJ, { prompt: 'z' });
    expect([broken.status, await broken.text()]).toEqual([500, 'upstream exploded']);
    expect(fake.tasks.size).toBe(1);

    const upload = await (await post(`${fake.url}/mj/submit/upload-discord-images`, MJ, { base64Array: ['data:image/png;base64,AA=='] })).json();
    expect(upload).toEqual({ code: 1, description: '提交成功', result: [`${fake.url}/attachments/up-1.png`] });
    const swap = (await (await post(`${fake.url}/mj/insight-face/swap`, MJ, { sourceBase64: 'a', targetBase64: 'b' })).json()) as { result: string };
    expect(fake.tasks.get(swap.result)?.action).toBe('SWAP_FACE');
    expect(fake.tasks.size).toBe(2);
  });

  it('finishes tasks by itself with autoFinishMs, failing prompts that ask to fail', async () => {
    // Long enough that a loaded machine still reads the first task before it finishes.
    const fake = await mj({ autoFinishMs: 500, secret: 's2' });
    const ok = ((await (await post(`${fake.url}/mj/submit/imagine`, { 'mj-api-secret': 's2' }, { prompt: 'fine' })).json()) as { result: string }).result;
    const bad = ((await (await post(`${fake.url}/mj/submit/imagine`, { 'mj-api-secret': 's2' }, { prompt: 'please fail now' })).json()) as { result: string }).result;
    expect(fake.task(ok)?.status).toBe('SUBMITTED');
    await sleep(550);
    const list = (await (await post(`${fake.url}/mj/task/list-by-condition`, { 'mj-api-secret': 's2' }, { ids: [ok, bad] })).json()) as MjTaskJson[];
    expect(list.map((t) => [t.status, t.failReason])).toEqual([
      ['SUCCESS', ''],
      ['FAILURE', 'Banned prompt detected'],
    ]);
  });
});

describe('fake Suno-API', () => {
  it('refuses a missing or wrong key', async () => {
    const fake = await suno();
    const res = await post(`${fake.url}/suno/submit/MUSIC`, { authorization: 'Bearer nope' }, { prompt: 'x' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthorized' });
    expect((await fetch(`${fake.url}/suno/fetch/abc`)).status).toBe(401);
  });

  it('submits music, moves it to success and serves its clips', async () => {
    const fake = await suno();
    const submit = (await (await post(`${fake.url}/suno/submit/MUSIC`, SUNO, { gpt_description_prompt: 'a happy song', mv: 'chirp-v3-0', make_instrumental: false })).json()) as {
      code: string;
      data: string;
    };
    expect(submit.code).toBe('success');
    expect(submit.data).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const id = submit.data;
    expect(fake.tasks.get(id)).toMatchObject({ action: 'MUSIC', status: 'SUBMITTED', progress: '0%', data: null, submitted: { mv: 'chirp-v3-0' } });

    fake.queued(id);
    fake.progress(id, 50);
    let task = ((await (await fetch(`${fake.url}/suno/fetch/${id}`, { headers: SUNO })).json()) as { data: SunoTaskJson }).data;
    expect(task).toMatchObject({ task_id: id, status: 'IN_PROGRESS', progress: '50%' });
    expect(task.start_time).toBeGreaterThan(1_600_000_000);

    fake.succeed(id);
    const batch = (await (await post(`${fake.url}/suno/fetch`, SUNO, { ids: [id, 'unknown'], action: 'MUSIC' })).json()) as { code: string; data: SunoTaskJson[] };
    expect(batch.code).toBe('success');
    expect(batch.data).toHaveLength(1);
    task = batch.data[0];
    expect(task).toMatchObject({ status: 'SUCCESS', progress: '100%', fail_reason: '' });
    expect(task.finish_time).toBeGreaterThanOrEqual(task.submit_time);
    const clips = task.data as SunoClip[];
    expect(clips).toHaveLength(2);
    expect(clips[0]).toMatchObject({ status: 'complete', model_name: 'chirp-v3', metadata: { gpt_description_prompt: 'a happy song', duration: 120.5 } });
    const audio = await fetch(clips[0].audio_url);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await fetch(clips[1].image_url)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('makes lyrics, fails tasks, answers queued replies and broken fetches', async () => {
    const fake = await suno();
    const lyrics = ((await (await post(`${fake.url}/suno/submit/lyrics`, SUNO, { prompt: 'rain' })).json()) as { data: string }).data;
    fake.succeed(lyrics);
    const words = fake.taskJson(lyrics)?.data as SunoLyrics;
    expect(words).toMatchObject({ status: 'complete', title: 'Fake Lyrics' });
    expect(words.text).toContain('[Verse]');

    const music = ((await (await post(`${fake.url}/suno/submit/MUSIC`, SUNO, { prompt: 'x', title: 't', tags: 'pop' })).json()) as { data: string }).data;
    fake.fail(music, 'content policy');
    const failed = ((await (await fetch(`${fake.url}/suno/fetch/${music}`, { headers: SUNO })).json()) as { data: SunoTaskJson }).data;
    expect(failed).toMatchObject({ status: 'FAILURE', fail_reason: 'content policy' });
    expect(await (await fetch(`${fake.url}/suno/fetch/nope`, { headers: SUNO })).json()).toMatchObject({ code: 'error', message: 'task not exist' });

    fake.nextSubmit({ body: { code: 'error', message: 'insufficient credits' } }, { status: 500, body: 'boom' });
    expect(await (await post(`${fake.url}/suno/submit/MUSIC`, SUNO, { prompt: 'y' })).json()).toEqual({ code: 'error', message: 'insufficient credits' });
    const boom = await post(`${fake.url}/suno/submit/MUSIC`, SUNO, { prompt: 'y' });
    expect([boom.status, await boom.text()]).toEqual([500, 'boom']);
    expect(fake.tasks.size).toBe(2);

    fake.setFetchFailure('http500');
    expect((await post(`${fake.url}/suno/fetch`, SUNO, { ids: [music] })).status).toBe(500);
    fake.setFetchFailure('badjson');
    await expect((await post(`${fake.url}/suno/fetch`, SUNO, { ids: [music] })).json()).rejects.toThrow();
    fake.setFetchFailure('code');
    expect(await (await post(`${fake.url}/suno/fetch`, SUNO, { ids: [music] })).json()).toMatchObject({ code: 'error' });
  });

  it('finishes tasks by itself with autoFinishMs', async () => {
    // Long enough that a loaded machine still reads the first task before it finishes.
    const fake = await suno({ autoFinishMs: 500, key: 'k2' });
    const auth = { authorization: 'Bearer k2' };
    const ok = ((await (await post(`${fake.url}/suno/submit/MUSIC`, auth, { gpt_description_prompt: 'calm' })).json()) as { data: string }).data;
    const bad = ((await (await post(`${fake.url}/suno/submit/MUSIC`, auth, { prompt: 'this should fail' })).json()) as { data: string }).data;
    expect(fake.task(ok)?.status).toBe('SUBMITTED');
    await sleep(550);
    const batch = (await (await post(`${fake.url}/suno/fetch`, auth, { ids: [ok, bad] })).json()) as { data: SunoTaskJson[] };
    expect(batch.data.map((t) => [t.status, t.fail_reason])).toEqual([
      ['SUCCESS', ''],
      ['FAILURE', 'Banned prompt detected'],
    ]);
  });
});
