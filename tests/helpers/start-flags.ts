/** The Node flags `npm start` runs the server with (package.json's start script). */
import { readFileSync } from 'node:fs';

export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));
}
