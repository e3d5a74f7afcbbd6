/**
 * The Codex CLI (`codex exec`, wire_api "responses") against the gateway: a custom model
 * provider whose base_url is our /v1 and whose key is one of our sk- tokens, a fresh
 * CODEX_HOME, nothing but loopback. The fake upstream first asks for Codex's own shell tool
 * (`exec_command`, the function tool Codex sends in `tools`), Codex runs it and sends its output
 * back as a function_call_output, and the upstream's final text must come out on Codex's
 * stdout. Through an OpenAI channel (Responses passed through), a Claude channel and a Gemini
 * channel (both converted through chat); every turn billed in the consume log.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/dialects';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startFakeClaude, type FakeClaude } from '../fakes/claude';
import { startFakeGemini, type FakeGemini } from '../fakes/gemini';
import { startBench, type Bench } from './harness';
import { balances, seedChannel } from './seed';

const CODEX = resolve('node_modules/.bin/codex');
const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-3-7-sonnet-20250219';
const GEMINI = 'gemini-2.0-flash';
const MARKER = 'codex-tool-ran-4711';
const FINAL = 'All done: the command printed the marker.';
const COMMAND = `echo ${MARKER}`;

interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One `codex exec` with its own CODEX_HOME; the token travels in an env var named by env_key. */
function runCodex(home: string, baseUrl: string, apiKey: string, model: string): Promise<CodexRun> {
  writeFileSync(
    join(home, 'config.toml'),
    [
      `model = "${model}"`,
      'model_provider = "switchyard"',
      'check_for_update_on_startup = false',
      '[model_providers.switchyard]',
      'name = "Switchyard"',
      `base_url = "${baseUrl}/v1"`,
      'env_key = "SWITCHYARD_TOKEN"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const work = join(home, 'work');
  const args = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-C', work, `Run the shell command \`${COMMAND}\` and tell me what it printed.`];
  return new Promise((resolveRun, reject) => {
    // Only what Codex needs: no proxies, no user config, no real credentials.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home, SWITCHYARD_TOKEN: apiKey, NO_COLOR: '1', RUST_LOG: 'error' };
    const child = spawn(CODEX, args, { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** The function_call_output items of a Responses request body (what Codex sends back). */
function toolOutputs(body: string): string[] {
  const input = (JSON.parse(body) as { input?: { type?: string; output?: unknown }[] }).input ?? [];
  return input.filter((item) => item.type === 'function_call_output').map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}

/** The texts of the tool_result blocks of a Claude request body (what the converted output became). */
function claudeToolResults(body: string): string[] {
  const messages = (JSON.parse(body) as { messages?: { content?: unknown }[] }).messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string; content?: unknown }[]) : []))
    .filter((block) => block.type === 'tool_result')
    .map((block) => (typeof block.content === 'string' ? block.content : JSON.stringify(block.content)));
}

/** The responses of the functionResponse parts of a Gemini request body. */
function geminiToolResults(body: string): string[] {
  const contents = (JSON.parse(body) as { contents?: { parts?: { functionResponse?: { response?: unknown } }[] }[] }).contents ?? [];
  return contents.flatMap((c) => c.parts ?? []).flatMap((p) => (p.functionResponse ? [JSON.stringify(p.functionResponse.response)] : []));
}

describeEachDialect('Codex CLI through /v1/responses', (dialect) => {
  let openai: FakeOpenAI;
  let claude: FakeClaude;
  let gemini: FakeGemini;
  let b: Bench;
  let home: string;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    [openai, claude, gemini] = await Promise.all([startFakeOpenAI(), startFakeClaude(), startFakeGemini()]);
    b = await startBench(dialect);
    channels.gemini = await seedChannel(b.s, { type: 24, base_url: gemini.url, key: 'gm-fake-good', models: GEMINI });
    channels.openai = await seedChannel(b.s, { type: 1, base_url: openai.url, models: GPT });
    channels.claude = await seedChannel(b.s, { type: 14, base_url: claude.url, key: 'sk-ant-fake-good', models: CLAUDE });
  });
  afterAll(async () => {
    await b?.close();
    await Promise.all([openai?.close(), claude?.close(), gemini?.close()]);
  });

  function freshHome(): string {
    home = mkdtempSync(join(tmpdir(), 'switchyard-codex-'));
    mkdirSync(join(home, 'work'));
    return home;
  }

  async function logsSince(id: number) {
    await b.flush();
    return b.s.app.ctx.db.selectFrom('logs').selectAll().where('user_id', '=', b.user.id).where('type', '=', 2).where('id', '>', id).orderBy('id').execute();
  }

  async function lastLogId(): Promise<number> {
    await b.flush();
    const row = await b.s.app.ctx.db.selectFrom('logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    return row?.id ?? 0;
  }

  it('OpenAI channel (pass-through): exec_command round trip, final text on stdout, both turns billed', { timeout: 120_000 }, async () => {
    const dir = freshHome();
    try {
      const since = await lastLogId();
      const before = await balances(b.s, b.user.id, b.token.id);
      openai.script({ toolCalls: [{ id: 'call_codex1', name: 'exec_command', arguments: { cmd: COMMAND } }], usage: { prompt: 2000, completion: 40 } }, (request) => ({
        text: toolOutputs(request.body).some((o) => o.includes(MARKER)) ? FINAL : 'The tool output never came back.',
        usage: { prompt: 2100, completion: 12 },
      }));
      const run = await runCodex(dir, b.s.url, b.token.apiKey, GPT);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(run.stdout).toContain(FINAL);

      const calls = openai.requests.filter((r) => r.path === '/v1/responses');
      const sent = JSON.parse(calls.at(-2)!.body) as { stream: boolean; tools: { name?: string }[] };
      expect(sent.stream).toBe(true);
      expect(sent.tools.some((t) => t.name === 'exec_command')).toBe(true);
      expect(toolOutputs(calls.at(-1)!.body).join('\n')).toContain(MARKER);

      const logs = await logsSince(since);
      expect(logs.map((l) => [l.prompt_tokens, l.completion_tokens, Number(l.channel_id)])).toEqual([
        [2000, 40, channels.openai],
        [2100, 12, channels.openai],
      ]);
      // (2000 + 40 × 4) × 0.075 = 162; (2100 + 12 × 4) × 0.075 = 161.1 → 161
      expect(logs.map((l) => Number(l.quota))).toEqual([162, 161]);
      const after = await balances(b.s, b.user.id, b.token.id);
      expect(before.quota - after.quota).toBe(323);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Claude channel (converted): exec_command round trip, final text on stdout, both turns billed', { timeout: 120_000 }, async () => {
    const dir = freshHome();
    try {
      const since = await lastLogId();
      claude.script({ toolCalls: [{ id: 'toolu_codex1', name: 'exec_command', arguments: { cmd: COMMAND } }], usage: { prompt: 3000, completion: 30 } }, (request) => ({
        text: claudeToolResults(request.body).some((o) => o.includes(MARKER)) ? FINAL : 'The tool output never came back.',
        usage: { prompt: 3100, completion: 10 },
      }));
      const run = await runCodex(dir, b.s.url, b.token.apiKey, CLAUDE);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(run.stdout).toContain(FINAL);

      // Codex's tools reached Claude as Claude tools; its developer messages as the system prompt.
      const first = JSON.parse(claude.requests.at(-2)!.body) as { system?: unknown; tools: { name: string }[] };
      expect(first.tools.some((t) => t.name === 'exec_command')).toBe(true);
      expect(JSON.stringify(first.system)).toContain('Codex');
      expect(claudeToolResults(claude.requests.at(-1)!.body).join('\n')).toContain(MARKER);

      const logs = await logsSince(since);
      expect(logs.map((l) => [l.prompt_tokens, l.completion_tokens, Number(l.channel_id)])).toEqual([
        [3000, 30, channels.claude],
        [3100, 10, channels.claude],
      ]);
      // (3000 + 30 × 5) × 1.5 = 4725; (3100 + 10 × 5) × 1.5 = 4725
      expect(logs.map((l) => Number(l.quota))).toEqual([4725, 4725]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Gemini channel (converted): exec_command round trip, final text on stdout, both turns billed', { timeout: 120_000 }, async () => {
    const dir = freshHome();
    try {
      const since = await lastLogId();
      const before = await balances(b.s, b.user.id, b.token.id);
      gemini.script({ toolCalls: [{ name: 'exec_command', arguments: { cmd: COMMAND } }], usage: { prompt: 2500, completion: 20 } }, (request) => ({
        text: geminiToolResults(request.body).some((o) => o.includes(MARKER)) ? FINAL : 'The tool output never came back.',
        usage: { prompt: 2600, completion: 9 },
      }));
      const run = await runCodex(dir, b.s.url, b.token.apiKey, GEMINI);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(run.stdout).toContain(FINAL);

      // Codex's tools reached Gemini as function declarations; the command's output came back.
      const first = JSON.stringify(JSON.parse(gemini.requests.at(-2)!.body));
      expect(first).toContain('exec_command');
      expect(geminiToolResults(gemini.requests.at(-1)!.body).join('\n')).toContain(MARKER);

      const logs = await logsSince(since);
      expect(logs.map((l) => [l.prompt_tokens, l.completion_tokens, Number(l.channel_id)])).toEqual([
        [2500, 20, channels.gemini],
        [2600, 9, channels.gemini],
      ]);
      const after = await balances(b.s, b.user.id, b.token.id);
      expect(logs.every((l) => Number(l.quota) > 0)).toBe(true);
      expect(before.quota - after.quota).toBe(logs.reduce((sum, l) => sum + Number(l.quota), 0));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
