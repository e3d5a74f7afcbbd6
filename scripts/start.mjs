// `npm start`: rebuilds the console and the server when their build is missing or older
// than their sources, then runs the server.
import { WEB_BUILD_SOURCES } from './web-sources.mjs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') walk(join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) walk(join(root, p));
  return newest;
}

function stale(output, sources) {
  const out = join(root, output);
  return !existsSync(out) || statSync(out).mtimeMs < newestMtime(sources);
}

function run(script) {
  const r = spawnSync('npm', ['run', '-s', script], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (existsSync(join(root, 'index.html')) && stale('dist/web/index.html', WEB_BUILD_SOURCES)) {
  console.log('Building the console ...');
  run('build:web');
}
if (stale('dist/server/main.js', ['src/server', 'src/shared', 'resources', 'package.json'])) {
  console.log('Building the server ...');
  run('build:server');
}
process.chdir(root);
await import(join(root, 'dist/server/main.js'));
