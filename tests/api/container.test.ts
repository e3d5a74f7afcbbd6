/**
 * The container files: the Dockerfile passes a Dockerfile linter and has the shape operators
 * rely on (multi-stage, Node of the engines field, non-root, /data volume, probe on /healthz);
 * the image's own start command, run here with the image's environment (the data folder moved
 * to a temp dir), serves /healthz and passes the image's HEALTHCHECK command; the compose file
 * wires the several-nodes setup of the README. (No Docker daemon in the test environment.)
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../helpers/ports';
import { exitOf, processSandbox } from '../helpers/server-process';
import { startNodeFlags } from '../../scripts/start-flags.mjs';

const dockerfileText = readFileSync('Dockerfile', 'utf8');
const dockerfile = DockerfileParser.parse(dockerfileText);
const instructions = dockerfile.getInstructions();
const lastFrom = instructions.map((i) => i.getKeyword()).lastIndexOf('FROM');
/** The runtime stage: what the image is. */
const runtime = instructions.slice(lastFrom);
const of = (keyword: string): Instruction[] => runtime.filter((i) => i.getKeyword() === keyword);

function jsonArgs(instruction: Instruction): string[] {
  return (instruction as JSONInstruction).getJSONStrings().map((s) => s.getJSONValue());
}

/** ENV of the runtime stage, by name. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of of('ENV')) {
    for (const property of (instruction as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }).getProperties()) {
      env[property.getName()] = property.getValue() ?? '';
    }
  }
  return env;
}

function healthcheckCommand(): string[] {
  const raw = of('HEALTHCHECK')[0]!.getArgumentsContent()!;
  return JSON.parse(raw.slice(raw.indexOf('CMD') + 3).trim()) as string[];
}

describe('Dockerfile', () => {
  it('passes the linter without a problem', () => {
    const problems = validate(dockerfileText).map((d) => `${d.range.start.line + 1}: ${d.message}`);
    expect(problems).toEqual([]);
  });

  it('runs the server with the Node flags of npm start, which Node accepts', () => {
    const [command, ...args] = jsonArgs(of('CMD')[0]!);
    expect(command).toBe('node');
    const flags = startNodeFlags();
    expect(flags.length).toBeGreaterThan(0);
    expect(args).toEqual([...flags, 'dist/server/main.js']);
    // A misspelt or removed option stops Node before it runs anything.
    expect(spawnSync(process.execPath, [...flags, '-e', '0']).status).toBe(0);
    expect(spawnSync(process.execPath, ['--max-semi-space-sise=32', '-e', '0']).status).not.toBe(0);
  });

  it('builds in stages on the Node of the engines field and runs as an unprivileged user with /data', () => {
    const engines = JSON.parse(readFileSync('package.json', 'utf8')).engines.node as string;
    const nodeMajor = /(\d+)/.exec(engines)![1];
    const base = dockerfile
      .getInitialARGs()
      .find((a) => a.getProperty()?.getName() === 'NODE_IMAGE')!
      .getProperty()!
      .getValue();
    expect(base).toBe(`node:${nodeMajor}-bookworm-slim`);
    expect(instructions.filter((i) => i.getKeyword() === 'FROM').length).toBeGreaterThanOrEqual(3);
    expect(dockerfileText).toMatch(/RUN npm ci\n/);
    expect(dockerfileText).toMatch(/RUN npm run build\n/);
    expect(dockerfileText).toMatch(/RUN npm ci --omit=dev\n/);
    expect(of('USER').map((u) => u.getArgumentsContent())).toEqual(['node']);
    expect(of('VOLUME').map((v) => jsonArgs(v))).toEqual([['/data']]);
    expect(of('EXPOSE').map((e) => e.getArgumentsContent())).toEqual(['3000']);
    expect(imageEnv()).toMatchObject({ DATA_DIR: '/data', SQLITE_PATH: '/data/switchyard.db', PORT: '3000' });
    expect(healthcheckCommand()[0]).toBe('node');
    expect(healthcheckCommand().join(' ')).toContain('/healthz');
  });
});

describe('the image start command', () => {
  const { dataDir, track } = processSandbox('switchyard-image-');

  it('serves /healthz and passes the HEALTHCHECK, then stops on SIGTERM', async () => {
    // The image's server bundle (the build stage runs the same script as part of `npm run build`).
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
    const [command, ...args] = jsonArgs(of('CMD')[0]!);
    expect(command).toBe('node');
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      ...imageEnv(),
      // The image's paths, in a temp folder here.
      DATA_DIR: dataDir,
      SQLITE_PATH: join(dataDir, 'switchyard.db'),
      PORT: String(port),
      DRAIN_DELAY: '0',
    };
    const running = track(spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: 'ignore' }));
    const deadline = Date.now() + 60_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline && running.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    expect(healthy).toBe(true);

    const [probe, ...probeArgs] = healthcheckCommand();
    expect(probe).toBe('node');
    const check = spawnSync(process.execPath, probeArgs, { env: { PATH: env.PATH, PORT: String(port) }, timeout: 10_000 });
    expect(check.status).toBe(0);
    // The same probe fails when nothing answers: it does test the server.
    const otherPort = await freePort();
    expect(spawnSync(process.execPath, probeArgs, { env: { PATH: env.PATH, PORT: String(otherPort) }, timeout: 10_000 }).status).toBe(1);

    running.kill('SIGTERM');
    expect(await exitOf(running)).toBe(0);
  }, 120_000);
});

describe('docker-compose.yml', () => {
  const compose = parseYaml(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
    services: Record<
      string,
      { image?: string; build?: string; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] }; volumes?: string[] }
    >;
  };
  const { db, cache, master, slave } = compose.services;

  it('runs one master and slave nodes of this image on one PostgreSQL and one Redis', () => {
    expect(db!.image).toMatch(/^postgres:/);
    expect(cache!.image).toMatch(/^redis:/);
    for (const node of [master!, slave!]) {
      expect(node.build).toBe('.');
      expect(node.environment!.SQL_DSN).toMatch(/^postgres:\/\/switchyard:.*@db:5432\/switchyard$/);
      expect(node.environment!.REDIS_CONN_STRING).toBe('redis://cache:6379/0');
      // Every node signs sessions with the same secret, which the operator must give.
      expect(node.environment!.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
      expect(node.volumes).toEqual([expect.stringMatching(/:\/data$/)]);
    }
    expect(master!.environment!.NODE_TYPE).toBe('master');
    expect(slave!.environment!.NODE_TYPE).toBe('slave');
  });

  it('starts slaves once the master is ready (migrations done), the master once its stores are healthy', () => {
    expect(master!.depends_on).toEqual({ db: { condition: 'service_healthy' }, cache: { condition: 'service_healthy' } });
    expect(slave!.depends_on).toEqual({ master: { condition: 'service_healthy' } });
    expect(master!.healthcheck!.test.join(' ')).toContain('/readyz');
  });
});
