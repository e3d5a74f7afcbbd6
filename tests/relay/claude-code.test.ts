/**
 * Claude Code (`claude -p`, the real CLI from node_modules) against the gateway: its
 * ANTHROPIC_BASE_URL is our server and its key our sk- token (as x-api-key, and as a Bearer
 * token through ANTHROPIC_AUTH_TOKEN). The fake upstream first asks for one of Claude Code's own
 * tools (Read, of a file in the run's folder), the CLI runs it (--allowedTools approves it; the
 * tests run as root, where --dangerously-skip-permissions is refused) and sends the file back
 * as a tool_result, then the fake answers the final text. Once per family: a Claude channel
 * (passed through), an OpenAI channel and a Gemini channel (both converted through chat), each
 * billed for both turns by its own ratios.
 *
 * The CLI runs with a throw-away HOME / CLAUDE_CONFIG_DIR and a minimal environment with
 * telemetry, error reporting, auto-update and other non-essential traffic off, and every model
 * alias it may use for side calls (small/fast, haiku, sonnet, opus) pointed at the served
 * model, so nothing but our server is called.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import type { ScriptedReply } from '../fakes/script';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const CLI = resolve('node_modules/.bin/claude');
const CLAUDE = 'claude-3-7-sonnet-20250219';
const GPT = 'gpt-4o-mini';
const GEMINI = 'gemini-2.0-flash';
const FILE_TEXT = 'The secret word is periwinkle.';
const PROMPT = 'What is the secret word in notes.txt?';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeEachDialect('Claude Code CLI against the gateway', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  let home: string;
  let work: string;
  let notes: string;

  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    home = mkdtempSync(join(tmpdir(), 'claude-code-home-'));
    work = mkdtempSync(join(tmpdir(), 'claude-code-work-'));
    notes = join(work, 'notes.txt');
    writeFileSync(notes, FILE_TEXT + '\n');
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
    for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Asynchronous on purpose: the gateway answers from this very process. */
  function runCli(model: string, auth: 'api-key' | 'auth-token'): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      TMPDIR: tmpdir(),
      ANTHROPIC_BASE_URL: b.s.url,
      ...(auth === 'api-key' ? { ANTHROPIC_API_KEY: b.token.apiKey } : { ANTHROPIC_AUTH_TOKEN: b.token.apiKey }),
      ANTHROPIC_MODEL: model,
      ANTHROPIC_SMALL_FAST_MODEL: model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      ANTHROPIC_DEFAULT_SONNET_MODEL: model,
      ANTHROPIC_DEFAULT_OPUS_MODEL: model,
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_BUG_COMMAND: '1',
      DISABLE_COST_WARNINGS: '1',
      DISABLE_NON_ESSENTIAL_MODEL_CALLS: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
      NO_COLOR: '1',
    };
    const args = ['-p', PROMPT, '--output-format', 'text', '--model', model, '--allowedTools', 'Read'];
    return new Promise((done) => {
      const child = execFile(CLI, args, { cwd: work, env, timeout: 90_000 }, (error, stdout, stderr) => {
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      // -p reads stdin too: an empty one saves it waiting 3 s for input.
      child.stdin?.end();
    });
  }

  async function billedRun(model: string, auth: 'api-key' | 'auth-token'): Promise<{ run: CliRun; quota: number; logs: number }> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const run = await runCli(model, auth);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    // What the consume logs say was billed is what left the balance.
    expect(after.logSum - before.logSum).toBe(before.quota - after.quota);
    return { run, quota: before.quota - after.quota, logs: after.logCount - before.logCount };
  }

  /**
   * The scripted upstream: a request that already carries the tool's result gets the final
   * text, the first one the Read call (decided by what came, so a side call cannot steal it).
   */
  function twoTurns(hasResult: (body: string) => boolean, call: ScriptedReply, final: ScriptedReply) {
    return (request: { body: string }) => (hasResult(request.body) ? final : call);
  }

  it("Claude channel: a Read round trip, passed through, billed with Claude's formula", async () => {
    const decide = twoTurns(
      (body) => body.includes('"tool_result"'),
      { toolCalls: [{ id: 'toolu_cc1', name: 'Read', arguments: { file_path: notes } }], usage: { prompt: 100, completion: 10 } },
      { text: 'The secret word is periwinkle, from the Claude channel.', usage: { prompt: 200, completion: 20, cacheRead: 50 } },
    );
    claude.script(decide, decide);
    const seen = claude.requests.length;
    const { run, quota, logs } = await billedRun(CLAUDE, 'api-key');
    expect(run.stdout, run.stderr).toContain('The secret word is periwinkle, from the Claude channel.');
    expect(run.code).toBe(0);
    const calls = claude.requests.slice(seen).filter((r) => r.path === '/v1/messages');
    expect(calls).toHaveLength(2);
    const first = calls[0]!.json as { tools: { name: string }[]; model: string };
    expect(first.model).toBe(CLAUDE);
    expect(first.tools.map((t) => t.name)).toContain('Read');
    // The key Claude Code sent stayed here; the channel's own went upstream.
    expect(calls[0]!.headers['x-api-key']).toBe('sk-ant-fake-good');
    const result = (calls[1]!.json as { messages: { content: unknown }[] }).messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((c) => (c as { type?: string }).type === 'tool_result');
    expect(result).toMatchObject({ tool_use_id: 'toolu_cc1' });
    expect(JSON.stringify(result)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (100 + 10 × 5) × 1.5 + (200 + 50 × 0.1 + 20 × 5) × 1.5, each truncated
    expect(quota).toBe(225 + 457);
  }, 120_000);

  it('OpenAI channel: the same round trip converted through chat (Bearer auth)', async () => {
    const decide = twoTurns(
      (body) => body.includes('"role":"tool"'),
      { toolCalls: [{ id: 'call_cc1', name: 'Read', arguments: { file_path: notes } }], usage: { prompt: 200, completion: 20 } },
      { text: 'Periwinkle, says the OpenAI channel.', usage: { prompt: 400, completion: 40, cacheRead: 200 } },
    );
    openai.script(decide, decide);
    const seen = openai.requests.length;
    const { run, quota, logs } = await billedRun(GPT, 'auth-token');
    expect(run.stdout, run.stderr).toContain('Periwinkle, says the OpenAI channel.');
    expect(run.code).toBe(0);
    const calls = openai.requests
      .slice(seen)
      .map((r) => JSON.parse(r.body) as { stream?: boolean; tools?: { function: { name: string } }[]; messages: { role: string; content: unknown; tool_call_id?: string }[] });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.stream).toBe(true);
    expect(calls[0]!.tools!.map((t) => t.function.name)).toContain('Read');
    expect(calls[0]!.messages[0]!.role).toBe('system');
    // Claude's cache marks never reach a chat upstream.
    expect(openai.requests.slice(seen).some((r) => r.body.includes('cache_control'))).toBe(false);
    const toolMessage = calls[1]!.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_cc1' });
    expect(String(toolMessage!.content)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (200 + 20 × 4) × 0.075 + (400 − 200 + 200 × 0.5 + 40 × 4) × 0.075 = 21 + 34.5, truncated
    // as every Claude-format request is (the reference's Claude path)
    expect(quota).toBe(21 + 34);
  }, 120_000);

  it('Gemini channel: the same round trip converted through chat to generateContent', async () => {
    const decide = twoTurns(
      (body) => body.includes('"functionResponse"'),
      { toolCalls: [{ name: 'Read', arguments: { file_path: notes } }], usage: { prompt: 300, completion: 30 } },
      { text: 'Periwinkle, says the Gemini channel.', usage: { prompt: 600, completion: 60, reasoning: 40 } },
    );
    gemini.script(decide, decide);
    const seen = gemini.requests.length;
    const { run, quota, logs } = await billedRun(GEMINI, 'api-key');
    expect(run.stdout, run.stderr).toContain('Periwinkle, says the Gemini channel.');
    expect(run.code).toBe(0);
    const calls = gemini.requests.slice(seen);
    expect(calls.map((r) => r.path)).toEqual([`/v1beta/models/${GEMINI}:streamGenerateContent`, `/v1beta/models/${GEMINI}:streamGenerateContent`]);
    const declared = (calls[0]!.json as { tools: { functionDeclarations: { name: string }[] }[] }).tools.flatMap((t) => t.functionDeclarations.map((f) => f.name));
    expect(declared).toContain('Read');
    const response = (calls[1]!.json as { contents: { parts: { functionResponse?: { name: string } }[] }[] }).contents.flatMap((c) => c.parts).find((p) => p.functionResponse);
    expect(response!.functionResponse!.name).toBe('Read');
    expect(JSON.stringify(response)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (300 + 30 × 4) × 0.05 + (600 + (60 + 40 thoughts) × 4) × 0.05
    expect(quota).toBe(21 + 50);
  }, 120_000);
});
