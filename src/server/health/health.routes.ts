/**
 * `/healthz` (the process answers) and `/readyz` (it should be sent traffic), outside /api:
 * no session, no rate limit, no envelope; probes read the status code.
 */
import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness';

export async function registerHealth(server: FastifyInstance, readiness: Readiness): Promise<void> {
  server.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    const report = await readiness.check();
    return reply
      .code(report.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: report.ready ? 'ready' : 'not ready', database: report.database, migrations: report.migrations, draining: report.draining });
  });
}
