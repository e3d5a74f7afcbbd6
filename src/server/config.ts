/**
 * Environment configuration, read once at start and typed.
 *
 * Variable names follow the reference implementation (one-api / new-api) wherever it has one,
 * so an operator's existing environment carries over unchanged.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isAllowListEntry } from './services/tokens/ip-allow-list';

export interface RateLimitConfig {
  enabled: boolean;
  /** Requests accepted per window. */
  limit: number;
  /** Window length in seconds. */
  durationSeconds: number;
}

export interface Config {
  port: number;
  host: string;
  /** Folder for the SQLite file, the generated session secret and other local state. */
  dataDir: string;
  /** Empty: embedded SQLite at sqlitePath. */
  sqlDsn: string;
  sqlitePath: string;
  sqlMaxOpenConns: number;
  redisConnString: string;
  sessionSecret: string;
  /** HMAC key for token cache keys; defaults to the session secret. */
  cryptoSecret: string;
  /** Seconds between cache syncs between nodes and the cache lifetime. */
  syncFrequency: number;
  /** `master` runs migrations and background loops; `slave` only serves. */
  nodeType: 'master' | 'slave';
  /**
   * Whether this process runs the migrations, the first-start seeding and the deployment's
   * background loops: a master node, and in cluster mode (WORKERS > 1) only its worker 1, so
   * that N workers on one host do them once.
   */
  masterProcess: boolean;
  /** WORKERS: gateway processes this start forks on this host (1: no cluster, this process serves). */
  workers: number;
  /** 1..N in a worker forked by the cluster primary (set by the primary); 0 otherwise. */
  workerIndex: number;
  memoryCacheEnabled: boolean;
  frontendBaseUrl: string;
  batchUpdateEnabled: boolean;
  batchUpdateInterval: number;
  generateDefaultToken: boolean;
  /** Cloudflare Turnstile siteverify endpoint (replaceable for tests or a proxy). */
  turnstileVerifyUrl: string;
  globalApiRateLimit: RateLimitConfig;
  globalWebRateLimit: RateLimitConfig;
  criticalRateLimit: RateLimitConfig;
  /**
   * Proxy addresses (or CIDR ranges) whose X-Forwarded-For is believed. Empty: the socket
   * address is the client, so a forged header cannot dodge the rate limits.
   */
  trustedProxies: string[];
  /** Largest accepted request body for /api, bytes. */
  bodyLimit: number;
  relayTimeoutSeconds: number;
  streamingTimeoutSeconds: number;
  /** Ask OpenAI-style upstreams for stream usage (`stream_options.include_usage`) even when the client did not. */
  forceStreamOption: boolean;
  /** Env `COHERE_SAFETY_SETTING`: Cohere's `safety_mode`; NONE sends none. */
  cohereSafetySetting: string;
  /** Env `DIFY_DEBUG`: Dify's workflow and node events shown as reasoning text. */
  difyDebug: boolean;
  /** UPDATE_TASK: the master node follows drawing and music tasks up (docs/tasks.md#task-polling). */
  updateTask: boolean;
  /**
   * This node's name in the relay's quota journal (default: the host name); unique per
   * process. A cluster worker's is `<NODE_NAME or host name>-<index>`: stable per index, so a
   * worker's replacement recovers what the dead one left, and never a live sibling's.
   */
  nodeName: string;
  /** Where the built console lives. */
  webDistDir: string;
  /** Where the option and entity schemas live. */
  schemasDir: string;
  /** Azure OpenAI api-version when neither the request nor the channel names one. */
  azureDefaultApiVersion: string;
  /** Most images in one Gemini message; -1 = unlimited. */
  geminiVisionMaxImageNum: number;
  /** Count image tokens from the image's size (false: a flat cost per image). */
  getMediaToken: boolean;
  /** Same, for non-stream requests. */
  getMediaTokenNotStream: boolean;
  /** GitHub's OAuth host (token exchange), without a trailing slash. */
  githubOAuthUrl: string;
  /** GitHub's REST API base (the `/user` profile), without a trailing slash. */
  githubApiUrl: string;
  /** LinuxDO Connect base (token exchange and `/api/user`), without a trailing slash. */
  linuxdoUrl: string;
  /** Channel notices to root (auto-disable/enable, tests done): at most this many per type per window. */
  notifyLimitCount: number;
  /** That window, minutes. */
  notificationLimitMinutes: number;
  /**
   * PEM file of extra certificate authorities trusted for notification webhooks (a private CA,
   * or the tests' self-signed receiver); the public roots stay trusted. Empty: public roots only.
   */
  webhookCaFile: string;
  /**
   * Token URLs that come with a channel key (a Vertex AI service account's `token_uri`) may be
   * plain http and loopback or private addresses (local fakes, a private mirror); off, they
   * must be https on public addresses.
   */
  tokenUrlPrivateAddressEnabled: boolean;
  /** Seconds to pause between channels when testing or refreshing the balance of all channels. */
  pollingIntervalSeconds: number;
  /** CHANNEL_TEST_FREQUENCY: minutes between automatic tests of every channel (master process; 0 = off). */
  channelTestFrequencyMinutes: number;
  /** CHANNEL_UPDATE_FREQUENCY: minutes between automatic balance refreshes (master process; 0 = off). */
  channelUpdateFrequencyMinutes: number;
  /**
   * DRAIN_DELAY: seconds between SIGTERM and closing the listener, while /readyz already
   * answers 503 and requests are still served, so load balancers stop sending new ones first.
   */
  drainDelaySeconds: number;
  /**
   * METRICS_TOKEN: the bearer token a Prometheus scrape of `/metrics` must send. With
   * METRICS_ALLOW_IPS empty too, `/metrics` does not exist (404).
   */
  metricsToken: string;
  /** METRICS_ALLOW_IPS: addresses or CIDR ranges `/metrics` answers (with a token set: both must pass). */
  metricsAllowIps: string[];
  debug: boolean;
  version: string;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`environment variable ${name} must be a number, got "${raw}"`);
  return Math.trunc(n);
}

/** A period in minutes: unset, empty or not above zero means off (0); fractions are kept. */
function minutes(env: Env, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`environment variable ${name} must be a number of minutes, got "${raw}"`);
  return Math.max(0, n);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.trim().toLowerCase());
}

function str(env: Env, name: string, fallback = ''): string {
  const raw = env[name];
  return raw === undefined ? fallback : raw.trim();
}

/** A comma list: entries trimmed, empty ones dropped. */
function list(env: Env, name: string): string[] {
  return str(env, name)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma list of addresses and CIDR ranges; an entry that is neither stops the start (never a silent hole). */
function addressList(env: Env, name: string): string[] {
  const entries = list(env, name);
  for (const entry of entries) {
    if (!isAllowListEntry(entry)) throw new Error(`environment variable ${name}: "${entry}" is neither an IP address nor a CIDR range`);
  }
  return entries;
}

/**
 * A missing SESSION_SECRET is generated once and kept in the data folder, so sessions
 * survive restarts of a single node. Several nodes must share one explicit secret.
 */
function persistentSecret(dataDir: string, file: string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}

function readVersion(root: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
    return `v${pkg.version ?? '0.0.0'}`;
  } catch {
    return 'v0.0.0';
  }
}

/** The project root: two folders above this file both in the source tree and in dist/. */
export function projectRoot(): string {
  let dir = dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/** Environment variable through which the cluster primary tells a worker its index. */
export const WORKER_INDEX_ENV = 'SWITCHYARD_WORKER_INDEX';

/** WORKERS: empty → 1; `0` or `auto` → one per CPU the process may use. */
function workerCount(env: Env): number {
  const raw = str(env, 'WORKERS').toLowerCase();
  if (raw === 'auto' || raw === '0') return availableParallelism();
  const n = int(env, 'WORKERS', 1);
  if (n < 0) throw new Error(`environment variable WORKERS must be 0, auto or a positive number, got "${raw}"`);
  return n;
}

export function loadConfig(env: Env = process.env, root = projectRoot()): Config {
  const dataDir = resolve(root, str(env, 'DATA_DIR', 'data'));
  const sessionFromEnv = str(env, 'SESSION_SECRET');
  if (sessionFromEnv === 'random_string') {
    throw new Error('SESSION_SECRET must not be the literal "random_string": set a real secret');
  }
  const sessionSecret = sessionFromEnv || persistentSecret(dataDir, 'session-secret');
  const nodeType = str(env, 'NODE_TYPE', 'master') === 'slave' ? 'slave' : 'master';
  const workerIndex = Math.max(0, int(env, WORKER_INDEX_ENV, 0));
  const nodeName = workerIndex > 0 ? `${str(env, 'NODE_NAME') || hostname()}-${workerIndex}` : str(env, 'NODE_NAME');
  const sqlitePathRaw = str(env, 'SQLITE_PATH', join('data', 'switchyard.db')).replace(/\?.*$/, '');
  return {
    port: int(env, 'PORT', 3000),
    host: str(env, 'HOST', '0.0.0.0'),
    dataDir,
    sqlDsn: str(env, 'SQL_DSN'),
    sqlitePath: resolve(root, sqlitePathRaw),
    sqlMaxOpenConns: int(env, 'SQL_MAX_OPEN_CONNS', 20),
    redisConnString: str(env, 'REDIS_CONN_STRING'),
    sessionSecret,
    cryptoSecret: str(env, 'CRYPTO_SECRET') || sessionSecret,
    syncFrequency: int(env, 'SYNC_FREQUENCY', 60),
    nodeType,
    masterProcess: nodeType === 'master' && workerIndex <= 1,
    workers: workerCount(env),
    workerIndex,
    memoryCacheEnabled: bool(env, 'MEMORY_CACHE_ENABLED', true),
    frontendBaseUrl: str(env, 'FRONTEND_BASE_URL'),
    batchUpdateEnabled: bool(env, 'BATCH_UPDATE_ENABLED', false),
    batchUpdateInterval: int(env, 'BATCH_UPDATE_INTERVAL', 5),
    generateDefaultToken: bool(env, 'GENERATE_DEFAULT_TOKEN', false),
    turnstileVerifyUrl: str(env, 'TURNSTILE_VERIFY_URL', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    globalApiRateLimit: {
      enabled: bool(env, 'GLOBAL_API_RATE_LIMIT_ENABLE', true),
      limit: int(env, 'GLOBAL_API_RATE_LIMIT', 180),
      durationSeconds: int(env, 'GLOBAL_API_RATE_LIMIT_DURATION', 180),
    },
    globalWebRateLimit: {
      enabled: bool(env, 'GLOBAL_WEB_RATE_LIMIT_ENABLE', true),
      limit: int(env, 'GLOBAL_WEB_RATE_LIMIT', 60),
      durationSeconds: int(env, 'GLOBAL_WEB_RATE_LIMIT_DURATION', 180),
    },
    criticalRateLimit: {
      enabled: bool(env, 'CRITICAL_RATE_LIMIT_ENABLE', true),
      limit: int(env, 'CRITICAL_RATE_LIMIT', 20),
      durationSeconds: int(env, 'CRITICAL_RATE_LIMIT_DURATION', 1200),
    },
    trustedProxies: list(env, 'TRUSTED_PROXIES'),
    bodyLimit: int(env, 'MAX_REQUEST_BODY_MB', 32) * 1024 * 1024,
    relayTimeoutSeconds: int(env, 'RELAY_TIMEOUT', 0),
    streamingTimeoutSeconds: int(env, 'STREAMING_TIMEOUT', 60),
    forceStreamOption: bool(env, 'FORCE_STREAM_OPTION', true),
    cohereSafetySetting: str(env, 'COHERE_SAFETY_SETTING', 'NONE'),
    difyDebug: bool(env, 'DIFY_DEBUG', true),
    updateTask: bool(env, 'UPDATE_TASK', true),
    nodeName,
    webDistDir: resolve(root, str(env, 'WEB_DIST_DIR', join('dist', 'web'))),
    schemasDir: resolve(root, 'schemas'),
    azureDefaultApiVersion: str(env, 'AZURE_DEFAULT_API_VERSION', '2024-12-01-preview'),
    geminiVisionMaxImageNum: int(env, 'GEMINI_VISION_MAX_IMAGE_NUM', 16),
    getMediaToken: bool(env, 'GET_MEDIA_TOKEN', true),
    getMediaTokenNotStream: bool(env, 'GET_MEDIA_TOKEN_NOT_STREAM', true),
    githubOAuthUrl: str(env, 'GITHUB_OAUTH_URL', 'https://github.com').replace(/\/+$/, ''),
    githubApiUrl: str(env, 'GITHUB_API_URL', 'https://api.github.com').replace(/\/+$/, ''),
    linuxdoUrl: str(env, 'LINUXDO_URL', 'https://connect.linux.do').replace(/\/+$/, ''),
    notifyLimitCount: int(env, 'NOTIFY_LIMIT_COUNT', 2),
    notificationLimitMinutes: int(env, 'NOTIFICATION_LIMIT_DURATION_MINUTE', 10),
    webhookCaFile: str(env, 'WEBHOOK_CA_FILE'),
    tokenUrlPrivateAddressEnabled: bool(env, 'TOKEN_URL_PRIVATE_ADDRESS_ENABLED', false),
    pollingIntervalSeconds: int(env, 'POLLING_INTERVAL', 0),
    channelTestFrequencyMinutes: minutes(env, 'CHANNEL_TEST_FREQUENCY'),
    drainDelaySeconds: Math.max(0, int(env, 'DRAIN_DELAY', 5)),
    channelUpdateFrequencyMinutes: minutes(env, 'CHANNEL_UPDATE_FREQUENCY'),
    metricsToken: str(env, 'METRICS_TOKEN'),
    metricsAllowIps: addressList(env, 'METRICS_ALLOW_IPS'),
    debug: bool(env, 'DEBUG', false),
    version: readVersion(root),
  };
}
