/**
 * Builds the server: database and services first, then one Fastify instance serving the
 * console's JSON API under /api and the built console with an SPA fallback.
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import helmet from '@fastify/helmet';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, parseDsn, type Db } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { isDatabaseUnavailable } from './db/unavailable';
import { isValueTooLong } from './db/value-too-long';
import { AppError, MSG } from './errors';
import { registerApi } from './api';
import { loadOptionSchemas, OptionsService } from './services/options/options.service';
import { FallbackRateLimiter, MemoryRateLimiter, RedisRateLimiter, rateLimitHook } from './plumbing/rate-limit';
import { RedisLink } from './plumbing/redis-link';
import { ChangeHub } from './plumbing/change-events';
import { ClusterCodeStore, siblingWorkers } from './cluster/worker-link';
import { securityHeaders, subresourceHeaders } from './plumbing/security-headers';
import { pageScriptHashes } from './plumbing/inline-scripts';
import { acceptEmptyJsonBodies, BODY_VALIDATION_OPTIONS } from './plumbing/request-bodies';
import { ensureRootAccount } from './services/users/setup';
import { QuotaDataAggregator } from './services/dashboard/quota-data.aggregator';
import { AuditTrail } from './services/audit/audit.trail';
import { createCodeStore } from './services/accounts/code-store';
import { startRelay } from './relay/runtime';
import { startChannelChecks } from './services/channels/channel-schedule';
import { badUrlReply, registerRelay } from './relay/routes';
import { directRelay, type DirectHandler } from './relay/direct';
import { attachRealtime } from './relay/realtime/server';
import { Readiness } from './health/readiness';
import { registerHealth } from './health/health.routes';
import { openMetrics, registerMetrics } from './metrics/metrics.routes';
import { nowSeconds } from '../shared/time';
import { PRERENDERED_PAGE } from '../shared/prerendered-page';

export interface App {
  server: FastifyInstance;
  ctx: AppContext;
  /** Every route this server registered (the OpenAPI test checks each /api one has a schema). */
  routes: RouteOptions[];
  /** /readyz answers 503 from now on; everything else is still served (the first step of a drain). */
  startDraining(): void;
  close(): Promise<void>;
}

/** Where the context's connections report (standard error until the server's logger exists). */
interface StartLog {
  warn(message: string): void;
  info(message: string): void;
}

/** Opens the database, migrates and creates the root account (master nodes), loads the options. */
async function buildContext(config: Config, log: StartLog): Promise<{ ctx: AppContext; database: Db }> {
  const database = await openDatabase(parseDsn(config.sqlDsn, config.sqlitePath), {
    maxConnections: config.sqlMaxOpenConns,
    onError: (err) => log.warn(`database connection lost: ${err.message}`),
  });
  try {
    // In cluster mode only worker 1 of a master node migrates and creates the root account; the primary starts
    // the other workers once it listens, so they never race it.
    const isMaster = config.masterProcess;
    if (isMaster) await migrateToLatest(database.db, database.dialect);
    const redisLink = config.redisConnString ? new RedisLink(config.redisConnString, log) : undefined;
    await redisLink?.connect();
    const changes = new ChangeHub(redisLink, config.workerIndex > 0 ? siblingWorkers() : undefined);
    const options = new OptionsService(database.db, database.dialect, loadOptionSchemas(config.schemasDir), changes);
    await options.start(redisLink || config.memoryCacheEnabled ? config.syncFrequency : 0);
    const ctx: AppContext = {
      config,
      db: database.db,
      dialect: database.dialect,
      ...(redisLink ? { redis: redisLink.client, redisLink } : {}),
      options,
      changes,
      rateLimiter: redisLink ? new FallbackRateLimiter(redisLink, new RedisRateLimiter(redisLink.client), new MemoryRateLimiter()) : new MemoryRateLimiter(),
      quotaData: new QuotaDataAggregator(database.db, options),
      // Without Redis, cluster workers keep the codes in the primary: a code mailed by one
      // worker is checked by whichever worker the next request lands on.
      codes: !redisLink && config.workerIndex > 0 ? new ClusterCodeStore() : createCodeStore(redisLink),
      audit: new AuditTrail(database.db, (message) => log.warn(message)),
      startTime: nowSeconds(),
    };
    if (isMaster) await ensureRootAccount(ctx);
    return { ctx, database };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Replies for errors under /api: the envelope, never a stack trace. */
function apiErrorHandler(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof AppError) {
    void reply.code(error.status).send({ success: false, message: error.message, ...(error.fields ? { errors: error.fields } : {}) });
    return;
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const first = fe.validation[0];
    const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : (fe.validationContext ?? 'body');
    void reply.code(400).send({ success: false, message: `${MSG.invalidParams}: ${where} ${first?.message ?? 'is invalid'}` });
    return;
  }
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    void reply.code(413).send({ success: false, message: '请求体过大' });
    return;
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    void reply.code(400).send({ success: false, message: MSG.invalidParams });
    return;
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    void reply.code(fe.statusCode).send({ success: false, message: MSG.invalidParams });
    return;
  }
  if (isValueTooLong(error)) {
    void reply.code(400).send({ success: false, message: `${MSG.invalidParams}: 内容超过数据库字段长度` });
    return;
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn(`database unavailable: ${error.message}`);
    void reply.code(503).header('Retry-After', '5').send({ success: false, message: MSG.dbError });
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  void reply.code(500).send({ success: false, message: '服务器内部错误，请联系管理员' });
}

/** Fastify's own default: longer than common load balancers' idle timeouts. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export async function buildApp(config: Config): Promise<App> {
  const startLog: StartLog = {
    warn: (message) => void process.stderr.write(`${message}\n`),
    info: (message) => void process.stderr.write(`${message}\n`),
  };
  const { ctx, database } = await buildContext(config, startLog);
  // Set once the relay runs: its direct path answers the busiest gateway routes ahead of
  // Fastify (relay/direct.ts); every other request goes to Fastify.
  const front: { direct?: DirectHandler } = {};
  const server = Fastify({
    serverFactory: (handler) => {
      const http = createServer((req, res) => {
        if (!front.direct?.(req, res)) handler(req, res);
      });
      // What Fastify sets on the servers it makes itself.
      http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      return http;
    },
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    logger: {
      level: config.debug ? 'debug' : 'info',
      // Query strings can carry codes and tokens (OAuth, password reset): log paths only.
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, path: req.url.split('?')[0], ip: req.ip }),
      },
    },
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: config.bodyLimit,
    // Unknown body fields are dropped, known ones checked strictly (plumbing/request-bodies.ts).
    ajv: { customOptions: { ...BODY_VALIDATION_OPTIONS } },
    logController: new LogController({ disableRequestLogging: !config.debug }),
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: badUrlReply,
  });

  startLog.warn = (message) => server.log.warn(message);
  startLog.info = (message) => server.log.info(message);
  const routes: RouteOptions[] = [];
  server.addHook('onRoute', (route) => void routes.push(route));

  await server.register(
    async (api) => {
      // Cookies mean something under /api and the playground only (the relay registers its
      // own): the gateway's /v1 requests skip the parsing hook.
      await api.register(cookie, { secret: config.sessionSecret });
      // Security headers on /api and the console only (see plumbing/security-headers.ts).
      await api.register(helmet, securityHeaders(ctx.options));
      await api.register(compress, { global: true, threshold: 1024 });
      acceptEmptyJsonBodies(api);
      api.addHook('onRequest', rateLimitHook(ctx.rateLimiter, 'GA', config.globalApiRateLimit));
      api.setErrorHandler(apiErrorHandler);
      api.setNotFoundHandler((_request, reply) => {
        void reply.code(404).send({ success: false, message: '接口不存在' });
      });
      await registerApi(api, ctx);
    },
    { prefix: '/api' },
  );

  // The gateway: recovers this node's unsettled reservations before any request is taken.
  const relay = await startRelay(ctx, server.log);
  await registerRelay(server, relay);
  front.direct = directRelay(relay);
  relay.direct = front.direct;
  // WebSocket upgrades (the Realtime API) come on the Node server's own event, not through Fastify.
  const realtime = attachRealtime(relay, server.server);
  // Scheduled channel tests and balance refreshes (master process only), over the relay's pools.
  const channelChecks = startChannelChecks(ctx, server.log);

  // Probes: outside /api, so no session, rate limit or console headers stand in their way.
  const readiness = new Readiness(ctx.db, ctx.dialect);
  await server.register(async (probes) => registerHealth(probes, readiness));
  // Prometheus' scrape (METRICS_TOKEN / METRICS_ALLOW_IPS), outside /api like the probes.
  const metrics = openMetrics(relay);
  await server.register(async (scrape) => registerMetrics(scrape, metrics));

  // Its own scope, so its security headers stay off the relay's routes.
  await server.register(async (web) => registerConsole(web, ctx));

  let closed = false;
  return {
    server,
    ctx,
    routes,
    startDraining: () => readiness.startDraining(),
    async close() {
      if (closed) return;
      closed = true;
      readiness.startDraining();
      // The direct path knows nothing of closing: from now on every request goes to Fastify,
      // which answers it 503 with `Connection: close`, so clients on keep-alive connections let
      // go and the drain ends (else a busy client kept its connection, and the stop waited for
      // the forced exit).
      front.direct = undefined;
      // Channel rounds (scheduled or started by a button) are cancelled: nothing waits on them.
      await channelChecks.stop();
      // Running Realtime sessions are ended and settled: their sockets would hold the close.
      realtime.close();
      await server.close();
      metrics?.source.close();
      // After the last request: the relay's queued settlements are written.
      await relay.stop().catch((err: unknown) => server.log.error({ err }, 'writing relay settlements failed'));
      // After the last request: what the dashboard collected is written before the database closes.
      await ctx.quotaData.stop().catch((err: unknown) => server.log.error({ err }, 'writing dashboard data failed'));
      // After the last request: the queued audit rows are written before the database closes.
      await ctx.audit.flush();
      await ctx.options.stop();
      ctx.rateLimiter.close();
      ctx.redisLink?.close();
      await database.close();
    },
  };
}

/**
 * Serves the built console with an SPA fallback; unknown /api paths stay JSON 404s. Every
 * answer of this scope carries the security headers: the documents (index.html, files, 404s)
 * all of them, the hashed build files those a subresource uses (`subresourceHeaders`).
 */
async function registerConsole(server: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = ctx.config.webDistDir;
  const hasConsole = existsSync(join(root, 'index.html'));
  if (hasConsole) {
    // Hashed build assets never change under one name: cached for a year, never revalidated
    // (so no validators). The build wrote Brotli and gzip copies (scripts/precompress.ts): the
    // one the browser accepts goes. A scope of its own, so the documents' headers stay off.
    await server.register(async (assets) => {
      await assets.register(helmet, subresourceHeaders());
      await assets.register(fastifyStatic, {
        root: join(root, 'assets'),
        prefix: '/assets/',
        wildcard: false,
        index: false,
        maxAge: '365d',
        immutable: true,
        etag: false,
        lastModified: false,
        preCompressed: true,
        setHeaders: varyByEncoding,
      });
    });
  }
  await server.register(async (pages) => registerPages(pages, ctx, hasConsole));
}

/** index.html (or a prerendered page) for every console route, the build's other files, and the 404s. */
async function registerPages(server: FastifyInstance, ctx: AppContext, hasConsole: boolean): Promise<void> {
  const root = ctx.config.webDistDir;
  // The page the build prerendered (scripts/prerender-login.ts), sent for its route instead of index.html when the build wrote it.
  const prerendered = existsSync(join(root, PRERENDERED_PAGE.file)) ? PRERENDERED_PAGE : undefined;
  // Its early script is inline: allowed by its hash on that page alone (at its route, and as the file asked for by name).
  const pageScripts = prerendered && { paths: [prerendered.path, `/${prerendered.file}`], sources: pageScriptHashes(join(root, prerendered.file)) };
  await server.register(helmet, securityHeaders(ctx.options, pageScripts));
  // `reply.sendFile` only: the routes are the not-found handler's.
  if (hasConsole) await server.register(fastifyStatic, { root, serve: false, preCompressed: true });
  const webLimit = rateLimitHook(ctx.rateLimiter, 'GW', ctx.config.globalWebRateLimit);
  // The SPA entry must never be cached. sendFile's own cache options do not hold: when the
  // build wrote no compressed copy of index.html (it is under precompress's minimum size),
  // @fastify/static falls back to the plain file without them, with the assets' year-long
  // immutable header. So the header is set once the reply is ready.
  const entryReplies = new WeakSet<FastifyReply>();
  server.addHook('onSend', async (_request, reply, payload) => {
    if (entryReplies.has(reply)) reply.header('cache-control', 'no-cache');
    return payload;
  });
  server.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api' || !hasConsole || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ success: false, message: '接口不存在' });
    }
    // A hashed asset that is not there (a page of an older build asking for its chunks) is a
    // 404, not the SPA page: a script tag given HTML fails with a misleading error.
    if (path.startsWith('/assets/')) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    // A file of the build (favicon, logo) or the SPA entry for any route.
    const file = path.slice(1);
    if (file && !file.includes('..') && existsSync(join(root, file)) && !file.endsWith('/')) {
      return reply.sendFile(file, root, { maxAge: 3600_000, immutable: false });
    }
    if (ctx.config.nodeType === 'slave' && ctx.config.frontendBaseUrl) {
      return reply.redirect(ctx.config.frontendBaseUrl.replace(/\/+$/, '') + request.url, 301);
    }
    await webLimit.call(server, request, reply);
    if (reply.sent) return reply;
    // A new console must reach browsers at their next visit (see `entryReplies`).
    entryReplies.add(reply);
    return reply.header('vary', 'accept-encoding').sendFile(path === prerendered?.path ? prerendered.file : 'index.html', root, { cacheControl: false });
  });
}

/** The same URL answers in Brotli, gzip or plain: caches must key on what the browser accepts. */
function varyByEncoding(res: { setHeader(name: string, value: string): unknown }): void {
  res.setHeader('vary', 'accept-encoding');
}
