// Summary of a V8 .cpuprofile (node --cpu-prof) of the gateway: self time by function and by
// source file, and total (inclusive) time by source file, with positions in the bundle mapped
// back to src/ through the bundle's source map (dist/bench/server/main.js.map). Also a CLI:
//   node bench/lib/profile.mjs <file.cpuprofile> [top]
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, printTable } from './report.mjs';

function loadMap(bundle) {
  const file = `${bundle}.map`;
  return existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

/** Where a profile frame's code lives: a src/ file, a package, node itself, or V8's own work. */
function placeOf(frame, map, bundleName) {
  const { url, functionName, lineNumber, columnNumber } = frame;
  if (!url) return { file: functionName || '(anonymous)', fn: functionName || '(anonymous)' };
  if (map && url.endsWith(bundleName)) {
    const entry = map.findEntry(lineNumber, columnNumber);
    const source = entry?.originalSource?.replace(/^.*?(src\/)/, '$1') ?? bundleName;
    const line = entry?.originalLine === undefined ? '' : `:${entry.originalLine + 1}`;
    return { file: source, fn: `${functionName || '(anonymous)'} ${source}${line}` };
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  const file = pkg ? `pkg ${pkg}` : url.startsWith('node:') ? url : basename(url);
  return { file, fn: `${functionName || '(anonymous)'} ${file}` };
}

export function summarizeProfile(profileFile, bundle) {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
  const map = bundle ? loadMap(bundle) : undefined;
  const bundleName = bundle ? basename(bundle) : '';
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const places = new Map(profile.nodes.map((n) => [n.id, placeOf(n.callFrame, map, bundleName)]));
  const self = new Map();
  const selfFile = new Map();
  const totalFile = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const place = places.get(id);
    if (nodes.get(id).callFrame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    total += ms;
    add(self, place.fn, ms);
    add(selfFile, place.file, ms);
    const files = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) files.add(places.get(at).file);
    files.delete('(root)');
    for (const f of files) add(totalFile, f, ms);
  });
  const top = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, ms, share: ms / total }));
  return { totalMs: total, idleMs: idle, selfByFunction: top(self), selfByFile: top(selfFile), totalByFile: top(totalFile) };
}

export function printProfile(summary, limit = 20) {
  const cols = [
    ['', 'name'],
    ['ms', (r) => fmt.int(r.ms)],
    ['share', (r) => `${(r.share * 100).toFixed(1)} %`],
  ];
  console.log(`\nCPU profile: ${fmt.int(summary.totalMs)} ms busy, ${fmt.int(summary.idleMs)} ms idle`);
  printTable('Self time by function', cols, summary.selfByFunction.slice(0, limit));
  printTable('Self time by file', cols, summary.selfByFile.slice(0, limit));
  printTable('Total (inclusive) time by file', cols, summary.totalByFile.slice(0, limit));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = new URL('../..', import.meta.url).pathname;
  printProfile(summarizeProfile(process.argv[2], `${root}dist/bench/server/main.js`), Number(process.argv[3] ?? 25));
}
