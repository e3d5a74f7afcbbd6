// The Node flags `npm start` runs the server with, read from package.json's start script: the
// one place they are written. The bench starts its gateways with them, and the tests check the
// container's command and the cluster's workers against them.
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);

/** @returns {string[]} */
export function startNodeFlags() {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  return pkg.scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));
}
