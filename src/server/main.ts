/** Starts the server from the environment and drains it on SIGTERM/SIGINT. */
import { existsSync } from 'node:fs';
import { loadConfig } from './config';
import { buildApp } from './app';

async function main(): Promise<void> {
  // Like the reference, a .env file in the working directory is read (real variables win).
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const app = await buildApp(config);
  await app.server.listen({ port: config.port, host: config.host });
  app.server.log.info(`Switchyard ${config.version} on port ${config.port} (${app.ctx.dialect}${app.ctx.redis ? ' + redis' : ''}, ${config.nodeType})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info(`${signal}: finishing requests in flight, then stopping`);
    // A second signal, or a drain that hangs, ends the process anyway.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    app
      .close()
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
