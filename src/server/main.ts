/**
 * Starts the server from the environment and drains it on SIGTERM/SIGINT. With WORKERS > 1
 * this process becomes the cluster primary and forks that many serving workers instead
 * (cluster/primary.ts); each worker runs this file again and serves.
 */
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { buildApp } from './app';
import { runPrimary } from './cluster/primary';

async function main(): Promise<void> {
  // Like the reference, a .env file in the working directory is read (real variables win).
  if (existsSync('.env')) process.loadEnvFile('.env');
  // Read here in the primary too: a generated session secret is written once, before any
  // worker starts, so all of them sign cookies with the same one.
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) {
    runPrimary(config, fileURLToPath(import.meta.url));
    return;
  }
  const app = await buildApp(config);
  await app.server.listen({ port: config.port, host: config.host });
  const worker = config.workerIndex > 0 ? `, worker ${config.workerIndex} of ${config.workers}` : '';
  app.server.log.info(
    `Switchyard ${config.version} on port ${config.port} (${app.ctx.dialect}${app.ctx.redis ? ' + redis' : ''}, ${config.nodeType}${worker}, node ${config.nodeName || hostname()}${config.masterProcess ? ', background loops' : ''})`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness flips first: load balancers polling /readyz stop sending requests during the
    // delay, while this process still serves those that come; then the listener closes.
    app.startDraining();
    // Ctrl-C in a terminal has no load balancer to wait for.
    const delay = signal === 'SIGINT' ? 0 : config.drainDelaySeconds;
    app.server.log.info(`${signal}: not ready; stopping in ${delay} s after the requests in flight`);
    new Promise((resolve) => setTimeout(resolve, delay * 1000))
      .then(() => {
        // A drain that hangs ends the process anyway.
        const force = setTimeout(() => process.exit(1), 15_000);
        force.unref();
        return app.close();
      })
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.server.log.error({ err }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
