/**
 * `GET /metrics`: Prometheus' text exposition, outside /api (no session, no rate limit, no
 * envelope on success). Off (METRICS_TOKEN and METRICS_ALLOW_IPS unset): 404 as an unknown
 * route, also where the console's SPA fallback would answer its page. On: the guard first
 * (access.ts: 403 for an address outside the allow-list, 401 without the right bearer token),
 * then the figures of this process, or of every worker of the host in cluster mode.
 */
import type { FastifyInstance } from 'fastify';
import type { RelayRuntime } from '../relay/runtime';
import { MetricsAccess } from './access';
import { localMetrics, workerMetrics, type MetricsSource } from './cluster';
import { buildRegistry } from './registry';

export interface MetricsEndpoint {
  access: MetricsAccess;
  source: MetricsSource;
}

/** The endpoint of a relay with metrics on; undefined when they are off. */
export function openMetrics(rt: RelayRuntime): MetricsEndpoint | undefined {
  if (!rt.metrics) return undefined;
  const access = new MetricsAccess(rt.ctx.config);
  const registry = buildRegistry(rt, rt.metrics);
  return { access, source: rt.ctx.config.workerIndex > 0 ? workerMetrics(registry) : localMetrics(registry) };
}

export async function registerMetrics(server: FastifyInstance, endpoint: MetricsEndpoint | undefined): Promise<void> {
  server.get('/metrics', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (!endpoint) return reply.code(404).send({ success: false, message: '接口不存在' });
    const refusal = endpoint.access.check(request.headers.authorization, request.ip);
    if (refusal) {
      if (refusal.status === 401) void reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(refusal.status).send({ success: false, message: refusal.message });
    }
    let text: string;
    try {
      text = await endpoint.source.text();
    } catch (err) {
      request.log.warn(`metrics scrape failed: ${err instanceof Error ? err.message : String(err)}`);
      return reply.code(503).send({ success: false, message: '指标暂时无法读取，请稍后重试' });
    }
    return reply.type(endpoint.source.contentType).send(text);
  });
}
