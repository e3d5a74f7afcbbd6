// The fake upstream (client core) and the bare pass-through proxy (target core).
import { join } from 'node:path';
import { CORES, firstJsonLine, startPinned } from './procs.mjs';

const here = new URL('.', import.meta.url).pathname;

export async function startFake(env = {}) {
  const child = startPinned(CORES.client, [process.execPath, join(here, 'fake-upstream.mjs')], { env: { ...process.env, ...env } });
  const { port } = await firstJsonLine(child, 20_000, 'fake upstream');
  return { child, pid: child.pid, url: `http://127.0.0.1:${port}` };
}

/** `nodeArgs`: extra Node options (e.g. the event-loop delay probe, eld.mjs). */
export async function startBare(upstreamUrl, { nodeArgs = [] } = {}) {
  const child = startPinned(CORES.target, [process.execPath, ...nodeArgs, join(here, 'bare-proxy.mjs'), upstreamUrl]);
  const { port } = await firstJsonLine(child, 20_000, 'bare proxy');
  return { child, pid: child.pid, url: `http://127.0.0.1:${port}` };
}

export async function fakeStats(fake) {
  return (await fetch(`${fake.url}/__stats`)).json();
}

export const worker = (name) => join(here, name);
