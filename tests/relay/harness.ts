/**
 * A relay test bench: a real server over a fresh database, fake upstreams, a user with a
 * balance, a token and helpers to make channels and read the ledger back.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import type { DialectCase } from '../helpers/dialects';
import { startTestServer, type StartOptions, type TestServer } from '../helpers/server';
import { relayOf, type RelayRuntime } from '../../src/server/relay/runtime';
import { expect } from 'vitest';
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

/** Adds model ratios (and completion ratios) to the built-in tables, as an admin would. */
export async function priceModels(bench: Bench, ratios: Record<string, number>, completionRatios: Record<string, number> = {}): Promise<void> {
  await setOption(bench, 'ModelRatio', JSON.stringify({ ...bench.s.app.ctx.options.json<Record<string, number>>('ModelRatio'), ...ratios }));
  await setOption(bench, 'CompletionRatio', JSON.stringify({ ...bench.s.app.ctx.options.json<Record<string, number>>('CompletionRatio'), ...completionRatios }));
}

/**
 * The quota `run` spent, audited: every reservation settled, and the user's balance fell by
 * exactly what their used quota rose.
 */
export async function quotaSpent(bench: Bench, run: () => Promise<unknown>): Promise<number> {
  await bench.flush();
  const before = await balances(bench.s, bench.user.id, bench.token.id);
  await run();
  await bench.flush();
  const after = await balances(bench.s, bench.user.id, bench.token.id);
  expect(after.openCount).toBe(0);
  expect(before.quota - after.quota).toBe(after.usedQuota - before.usedQuota);
  return before.quota - after.quota;
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
