import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/paths';

/** Files people read as text: code, styles, docs, configuration and manifests. */
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|css|md|json|ya?ml|html|sh)$|(^|\/)Dockerfile[^/]*$/;
/** Generated or vendored text nobody writes by hand. */
const GENERATED = /(^|\/)package-lock\.json$|(^|\/)tz-atlantic-canary\.json$/;

export interface TextFile {
  /** Path from the repository root, with forward slashes. */
  file: string;
  lines: string[];
}

/** Every tracked text file of the checkout (`git ls-files`), read once. */
export function trackedTextFiles(): TextFile[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter((file) => file && TEXT_FILE.test(file) && !GENERATED.test(file))
    .filter((file) => fs.existsSync(path.join(REPO_ROOT, file)))
    .map((file) => ({ file, lines: fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n') }));
}

/**
 * The anchors GitHub gives a markdown page: one per heading (lower case, punctuation dropped,
 * spaces to hyphens, a repeated slug gets -1, -2, …), plus explicit `<a id="…">` / `<a name="…">`.
 * Headings inside fenced code blocks are not headings.
 */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A heading's text as GitHub turns it into an anchor. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
