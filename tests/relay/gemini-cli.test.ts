/**
 * The Gemini CLI (`gemini -p`, the real one from node_modules) against the gateway: its
 * GEMINI_API_KEY is our sk- token and GOOGLE_GEMINI_BASE_URL our server. The fake upstream
 * first asks for one of the CLI's own tools (read_file), the CLI runs it (--yolo approves it)
 * and sends the file's text back, then the fake answers the final text. Once on a Gemini
 * channel (passed through) and once on an OpenAI channel (converted through chat), each
 * billed for both turns.
 *
 * The CLI runs with a throw-away HOME whose settings choose API-key auth and turn off
 * telemetry, usage statistics, auto-update, IDE integration and folder trust prompts, and a
 * minimal environment, so nothing but our server is called. `-m` names the model: without it
 * the CLI first asks a classifier model (flash-lite) to route the prompt.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const CLI = resolve('node_modules/.bin/gemini');
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-3-7-sonnet-20250219';
const FILE_TEXT = 'The secret word is periwinkle.';

const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, checkpointing: { enabled: false } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false, hasSeenNudge: true },
  tools: { useRipgrep: false },
};

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeEachDialect('Gemini CLI against the gateway', (dialect) => {
  let openai: FakeOpenAI;
  let gemini: FakeGemini;
  let claude: FakeClaude;
  let b: Bench;
  let home: string;
  let work: string;

  beforeAll(async () => {
    [openai, gemini, claude] = await Promise.all([startFakeOpenAI(), startFakeGemini(), startFakeClaude()]);
    b = await startBench(dialect);
    await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
    await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    home = mkdtempSync(join(tmpdir(), 'gemini-cli-home-'));
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(SETTINGS));
    work = mkdtempSync(join(tmpdir(), 'gemini-cli-work-'));
    writeFileSync(join(work, 'notes.txt'), FILE_TEXT + '\n');
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), gemini?.close(), claude?.close()]);
    for (const dir of [home, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Asynchronous on purpose: the gateway answers from this very process. */
  function runCli(model: string): Promise<CliRun> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: tmpdir(),
      GEMINI_API_KEY: b.token.apiKey,
      GOOGLE_GEMINI_BASE_URL: b.s.url,
      NO_COLOR: '1',
      NO_BROWSER: 'true',
    };
    return new Promise((done) => {
      execFile(CLI, ['-p', 'What is the secret word in notes.txt?', '-m', model, '--yolo'], { cwd: work, env, timeout: 90_000 }, (error, stdout, stderr) => {
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  async function billedRun(model: string): Promise<{ run: CliRun; quota: number; logs: number }> {
    await b.flush();
    const before = await balances(b.s, b.user.id, b.token.id);
    const run = await runCli(model);
    await b.flush();
    const after = await balances(b.s, b.user.id, b.token.id);
    expect(after.openCount).toBe(0);
    expect(after.logSum - before.logSum).toBe(before.quota - after.quota);
    return { run, quota: before.quota - after.quota, logs: after.logCount - before.logCount };
  }

  it('Gemini channel: a read_file round trip, passed through', async () => {
    gemini.script(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'notes.txt' } }], usage: { prompt: 100, completion: 10 } },
      { text: 'The secret word is periwinkle, from the gateway.', usage: { prompt: 200, completion: 20 } },
    );
    const seen = gemini.requests.length;
    const { run, quota, logs } = await billedRun(GEMINI);
    expect(run.stdout, run.stderr).toContain('The secret word is periwinkle, from the gateway.');
    expect(run.code).toBe(0);
    const calls = gemini.requests.slice(seen);
    expect(calls.map((r) => r.path)).toEqual([`/v1beta/models/${GEMINI}:streamGenerateContent`, `/v1beta/models/${GEMINI}:streamGenerateContent`]);
    const declared = (calls[0]!.json as { tools: { functionDeclarations: { name: string }[] }[] }).tools.flatMap((t) => t.functionDeclarations.map((f) => f.name));
    expect(declared).toContain('read_file');
    // The tool really ran: the file's text went back in a functionResponse.
    expect(JSON.stringify(calls[1]!.json)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (100 + 10 × 4) × 0.05 + (200 + 20 × 4) × 0.05
    expect(quota).toBe(7 + 14);
  }, 120_000);

  it('OpenAI channel: the same round trip converted through chat', async () => {
    openai.script(
      { toolCalls: [{ id: 'call_cli1', name: 'read_file', arguments: { file_path: 'notes.txt' } }], usage: { prompt: 200, completion: 20 } },
      { text: 'Periwinkle, says the OpenAI channel.', usage: { prompt: 400, completion: 40 } },
    );
    const seen = openai.requests.length;
    const { run, quota, logs } = await billedRun(GPT);
    expect(run.stdout, run.stderr).toContain('Periwinkle, says the OpenAI channel.');
    expect(run.code).toBe(0);
    const calls = openai.requests.slice(seen).map((r) => JSON.parse(r.body) as { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown; tool_call_id?: string }[] });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.tools!.map((t) => t.function.name)).toContain('read_file');
    const toolMessage = calls[1]!.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_cli1' });
    expect(String(toolMessage!.content)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (200 + 20 × 4) × 0.075 + (400 + 40 × 4) × 0.075
    expect(quota).toBe(21 + 42);
  }, 120_000);

  it('Claude channel: the same round trip converted through chat to Claude', async () => {
    claude.script(
      { toolCalls: [{ id: 'toolu_cli1', name: 'read_file', arguments: { file_path: 'notes.txt' } }], usage: { prompt: 300, completion: 30 } },
      { text: 'Periwinkle, says the Claude channel.', usage: { prompt: 500, completion: 50 } },
    );
    const seen = claude.requests.length;
    const { run, quota, logs } = await billedRun(CLAUDE);
    expect(run.stdout, run.stderr).toContain('Periwinkle, says the Claude channel.');
    expect(run.code).toBe(0);
    const calls = claude.requests.slice(seen).map((r) => JSON.parse(r.body) as { tools?: { name: string }[]; messages: { role: string; content: unknown }[] });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.tools!.map((t) => t.name)).toContain('read_file');
    // The file's text went back to Claude as a tool_result for its tool_use.
    const results = calls[1]!.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string; tool_use_id?: string }[]) : [])).filter((block) => block.type === 'tool_result');
    expect(results).toMatchObject([{ tool_use_id: 'toolu_cli1' }]);
    expect(JSON.stringify(results)).toContain(FILE_TEXT);
    expect(logs).toBe(2);
    // (300 + 30 × 5) × 1.5 + (500 + 50 × 5) × 1.5
    expect(quota).toBe(675 + 1125);
  }, 120_000);
});
