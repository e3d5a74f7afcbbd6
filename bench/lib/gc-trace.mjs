// What V8's scavenger promoted to the old generation while a row ran, read from the target's
// own log: the gateways run with `--trace-gc-nvp`, which prints one line per collection to
// stdout (their server log), a scavenge's with `gc=s` and `promoted=<bytes>`. Per request it
// tells which of the collector's two regimes the row ran in (bench/README.md, "One gateway
// process is one sample"): about 0.2–0.5 KB, or 3–5 KB with longer pauses and an old
// generation filling with promoted garbage. V8 prints through C's stdio, which holds a few
// kilobytes (a few scavenges) before they reach the file: the same lag at both ends of a run,
// so the sum stays about right; a line that the server's own log lines split is not counted.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** Node options that make a target print its collections. */
export const gcTraceNodeArgs = () => ['--trace-gc-nvp'];

/** Above this many promoted bytes per request a row ran in the costly regime. */
export const COSTLY_PROMOTION = 1536;

/** Where the log ends now: the start of what a run adds. */
export function gcLogOffset(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Bytes promoted and scavenges counted in the log after `offset`. */
export function promotedSince(file, offset) {
  let text = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const size = statSync(file).size;
      const buffer = Buffer.alloc(Math.max(0, size - offset));
      readSync(fd, buffer, 0, buffer.length, offset);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  let bytes = 0;
  let scavenges = 0;
  for (const line of text.split('\n')) {
    if (!line.includes(' gc=s ')) continue;
    const m = / promoted=(\d+)/.exec(line);
    if (!m) continue;
    bytes += Number(m[1]);
    scavenges++;
  }
  return { bytes, scavenges };
}
