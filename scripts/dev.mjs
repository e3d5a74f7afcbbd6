// `npm run dev`: the server with reload on change (tsx watch) and Vite's dev server for the
// console, which proxies /api, /v1 and /pg to the server.
import { spawn } from 'node:child_process';

const procs = [spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: process.env.PORT ?? '3000' } }), spawn('npx', ['vite'], { stdio: 'inherit' })];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
