/**
 * The documentation a comment relies on is in the repository (docs/README.md): no file cites a
 * specification or reference document kept outside it (a maintainer could not follow the
 * citation), and every `docs/<file>.md#<section>` cited anywhere, and every link between the
 * docs, names a file and a heading that exist (anchors by GitHub's rules).
 *
 * The patterns are built from pieces, so this file does not cite what it looks for; it is
 * also left out of the scan.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/config';

const ROOT = projectRoot();
const SCANNED_DIRS = ['src', 'resources', 'schemas', 'scripts', 'bench', 'tests', 'docs'];
const SCANNED_FILES = ['README.md'];
const TEXT_EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|json|md|css|html|ya?ml|sql|txt|sh)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'data']);
const THIS_FILE = relative(ROOT, __filename).split(sep).join('/');

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (TEXT_EXTENSIONS.test(name)) out.push(path);
  }
}

/** Repository-relative paths (with `/`) of every scanned text file, this one excepted. */
function scannedFiles(): string[] {
  const out: string[] = [];
  for (const dir of SCANNED_DIRS) walk(join(ROOT, dir), out);
  for (const file of SCANNED_FILES) out.push(join(ROOT, file));
  return out.map((path) => relative(ROOT, path).split(sep).join('/')).filter((path) => path !== THIS_FILE);
}

const SEED = 'se' + 'ed';
const REF = 'refer' + 'ence';
const SECTION = '\u00a7';

/** Citations of documents outside the repository, each with what it catches. */
const OUTSIDE_CITATIONS: Array<[what: string, pattern: RegExp]> = [
  ['a numbered spec document', new RegExp(`\\b${SEED}s? ?0\\d\\d\\b`, 'i')],
  ['a spec section', new RegExp(`\\b${SEED}s?\\W{0,3}${SECTION}`, 'i')],
  ['the server reference documents', new RegExp(`server-${REF}`, 'i')],
  ['a reference document by its part', new RegExp(`\\b(?:gateway|accounts) ${REF}\\b|\\b${REF} (?:gateway|accounts)\\b`)],
  ['the specs as a source', new RegExp(`\\b${SEED}s['’]|\\b${SEED}['’]s\\b|\\b(?:the|accounts|gateway) ${SEED}s?\\b|\\(${SEED}s?(?::| [a-z])`, 'i')],
  ['what the specs say', new RegExp(`\\b${SEED}s? (?:rules?|messages?|texts?|says?|entries|words?|lists?|wins?|names?|validation)\\b`, 'i')],
  ['a path to the shared folder', new RegExp(`\\.\\./shared/(?:${SEED}s|docs)\\b|\\bshared/${SEED}s\\b|/work/shared\\b`)],
];

/** A numbered section sign cites a document unless it is an RFC's section. */
const SECTION_NUMBER = new RegExp(`${SECTION} ?\\d`, 'g');
const RFC_BEFORE = /RFC \d+ $/;

function outsideCitations(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${path}:${index + 1}`;
    for (const [what, pattern] of OUTSIDE_CITATIONS) {
      if (pattern.test(line)) found.push(`${where} cites ${what}: ${line.trim()}`);
    }
    for (const match of line.matchAll(SECTION_NUMBER)) {
      if (!RFC_BEFORE.test(line.slice(0, match.index))) found.push(`${where} cites a numbered section: ${line.trim()}`);
    }
  });
  return found;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences), duplicates numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const DOCS_CITATION = /\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g;
/** A Markdown link inside docs/ to a sibling file and/or one of its sections. */
const DOCS_LOCAL_LINK = /\]\((?!https?:|\.\.\/)([\w.-]+\.md)?(?:#([\w-]+))?\)/g;

function docText(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, 'docs', file), 'utf8');
  } catch {
    return undefined;
  }
}

function brokenDocLinks(path: string, text: string): string[] {
  const broken: string[] = [];
  const check = (where: string, file: string, anchor: string | undefined) => {
    const target = docText(file);
    if (target === undefined) broken.push(`${where}: docs/${file} does not exist`);
    else if (anchor && !anchorsOf(target).has(anchor)) broken.push(`${where}: docs/${file} has no section #${anchor}`);
  };
  text.split('\n').forEach((line, index) => {
    const where = `${path}:${index + 1}`;
    for (const m of line.matchAll(DOCS_CITATION)) check(where, m[1]!, m[2]);
    if (path.startsWith('docs/') && path.endsWith('.md')) {
      for (const m of line.matchAll(DOCS_LOCAL_LINK)) {
        if (m[1] || m[2]) check(where, m[1] ?? path.slice('docs/'.length), m[2]);
      }
    }
  });
  return broken;
}

describe('documentation in the repository', () => {
  const files = scannedFiles();

  it('scans the source, tests and docs', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.some((f) => f.startsWith('src/server/'))).toBe(true);
    expect(files).not.toContain(THIS_FILE);
  });

  it('cites no document kept outside the repository', () => {
    const found = files.flatMap((path) => outsideCitations(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(found).toEqual([]);
  });

  it('points only at docs files and sections that exist', () => {
    const broken = files.flatMap((path) => brokenDocLinks(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(broken).toEqual([]);
  });

  it('catches what it looks for', () => {
    const cite = (text: string) => outsideCitations('x.ts', text).length;
    expect(cite(`// as in ${SEED} 001 ${SECTION}9`)).toBeGreaterThan(0);
    expect(cite(`// the ${SEED}'s words`)).toBe(1);
    expect(cite(`// (gateway ${REF} ${SECTION}7.2)`)).toBeGreaterThan(0);
    expect(cite(`// see ../shared/${SEED}s/000.txt`)).toBe(1);
    expect(cite(`// server-${REF}-accounts.md`)).toBe(1);
    expect(cite(`// RFC 6749 ${SECTION}5.2 error shape`)).toBe(0);
    expect(cite(`import { ${SEED}Channel } from './${SEED}';`)).toBe(0);
    expect(cite(`const t = Math.imul(${SEED} ^ (${SEED} >>> 15), 1);`)).toBe(0);
    expect(cite(`// (${SEED} rule: https only)`)).toBeGreaterThan(0);
    expect(cite(`// the server to ${SEED} defaults at start`)).toBe(0);
    expect(brokenDocLinks('x.ts', '// docs/billing.md#no-such-section')).toHaveLength(1);
    expect(brokenDocLinks('x.ts', '// docs/no-such-file.md')).toHaveLength(1);
    expect(brokenDocLinks('x.ts', '// docs/billing.md#group-ratio')).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Model mapping and status code mapping')).toBe('model-mapping-and-status-code-mapping');
    expect(githubSlug('Reference (`/api/openapi.json`)')).toBe('reference-apiopenapijson');
    expect(githubSlug('New-Api-User header')).toBe('new-api-user-header');
    expect([...anchorsOf('# A\n## Fields\n```\n# not a heading\n```\n## Fields\n')]).toEqual(['a', 'fields', 'fields-1']);
  });
});
