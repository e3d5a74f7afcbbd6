/**
 * A relay test bench: a real server over a fresh database, fake upstreams, a user with a
 * balance, a token and helpers to make channels and read the ledger back.
 */
import { expect } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import type { DialectCase } from '../helpers/dialects';
import { startTestServer, type StartOptions, type TestServer } from '../helpers/server';
import { relayOf, type RelayRuntime } from '../../src/server/relay/runtime';
import { balances, seedChannel, seedToken, seedUser, type SeededToken, type SeededUser, type TokenFields } from './seed';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';

export interface Bench {
  s: TestServer;
  relay: RelayRuntime;
  user: SeededUser;
  token: SeededToken;
  openai(apiKey?: string, options?: { maxRetries?: number; timeout?: number }): OpenAI;
  anthropic(apiKey?: string): Anthropic;
  /** Writes queued settlements now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function startBench(dialect: DialectCase, options: StartOptions & { quota?: number; token?: TokenFields } = {}): Promise<Bench> {
  const s = await startTestServer(dialect, options);
  const relay = relayOf(s.app.ctx)!;
  const user = await seedUser(s, options.quota ?? 100_000_000);
  const token = await seedToken(s, user.id, options.token ?? {});
  return {
    s,
    relay,
    user,
    token,
    openai: (apiKey = token.apiKey, o = {}) => new OpenAI({ apiKey, baseURL: `${s.url}/v1`, maxRetries: o.maxRetries ?? 0, timeout: o.timeout ?? 20_000 }),
    anthropic: (apiKey = token.apiKey) => new Anthropic({ apiKey, baseURL: s.url, maxRetries: 0, timeout: 20_000 }),
    flush: () => relay.ledger.flush(),
    close: () => s.close(),
  };
}

/** Option writes the way the console does them (validated, announced). */
export async function setOption(bench: Bench, key: string, value: string): Promise<void> {
  await bench.s.app.ctx.options.setInternal(key, value);
}

/** One fake upstream per provider family, as the client-format tests use them. */
export interface FamilyFakes {
  openai: FakeOpenAI;
  claude: FakeClaude;
  gemini: FakeGemini;
  close(): Promise<void>;
}

export async function startFamilyFakes(): Promise<FamilyFakes> {
  const [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
  return { openai, claude, gemini, close: async () => void (await Promise.all([openai.close(), claude.close(), gemini.close()])) };
}

/** An OpenAI, a Claude and a Gemini channel on the fakes, serving one model each; answers their ids. */
export async function seedFamilyChannels(b: Bench, fakes: FamilyFakes, models: { openai: string; claude: string; gemini: string }): Promise<{ openai: number; claude: number; gemini: number }> {
  return {
    openai: await seedChannel(b.s, { type: 1, base_url: fakes.openai.url, models: models.openai }),
    claude: await seedChannel(b.s, { type: 14, base_url: fakes.claude.url, key: 'sk-ant-fake-good', models: models.claude }),
    gemini: await seedChannel(b.s, { type: 24, base_url: fakes.gemini.url, key: 'gm-fake-good', models: models.gemini }),
  };
}

/**
 * Runs a request and answers what it cost: the balance drop, which must equal the one consume
 * log it wrote (its row is answered), with no reservation left open.
 */
export async function billedOnce(b: Bench, run: () => Promise<unknown>) {
  await b.flush();
  const before = await balances(b.s, b.user.id, b.token.id);
  await run();
  await b.flush();
  const after = await balances(b.s, b.user.id, b.token.id);
  expect(after.openCount).toBe(0);
  expect(after.logCount - before.logCount).toBe(1);
  const log = await b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
  expect(log.quota).toBe(before.quota - after.quota);
  expect(after.usedQuota - before.usedQuota).toBe(log.quota);
  return { quota: before.quota - after.quota, log };
}

/** Runs a request that must cost nothing: no log, no balance change, no reservation left open. */
export async function notBilled(b: Bench, run: () => Promise<unknown>): Promise<void> {
  await b.flush();
  const before = await balances(b.s, b.user.id, b.token.id);
  await run();
  await b.flush();
  const after = await balances(b.s, b.user.id, b.token.id);
  expect(after).toEqual(before);
}

/** Adds model ratios (and completion ratios) to the options, keeping the others. */
export async function setRatios(b: Bench, modelRatios: Record<string, number>, completionRatios: Record<string, number> = {}): Promise<void> {
  const options = b.s.app.ctx.options;
  await setOption(b, 'ModelRatio', JSON.stringify({ ...options.json<Record<string, number>>('ModelRatio'), ...modelRatios }));
  await setOption(b, 'CompletionRatio', JSON.stringify({ ...options.json<Record<string, number>>('CompletionRatio'), ...completionRatios }));
}

/** What a client read from a streamed chat answer: the text, the usage chunk, the finish reason, the error that ended it. */
export async function readChatStream(
  stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
): Promise<{ text: string; usage?: OpenAI.CompletionUsage; finish?: string | null; error?: unknown }> {
  const read: { text: string; usage?: OpenAI.CompletionUsage; finish?: string | null; error?: unknown } = { text: '' };
  try {
    for await (const chunk of stream) {
      read.text += chunk.choices[0]?.delta.content ?? '';
      read.finish = chunk.choices[0]?.finish_reason ?? read.finish;
      if (chunk.usage) read.usage = chunk.usage;
    }
  } catch (err) {
    read.error = err;
  }
  return read;
}
