import fs from 'node:fs';
import path from 'node:path';
import { markdownAnchors, trackedTextFiles, type TextFile } from './repo-text';
import { REPO_ROOT } from '../lib/paths';

/**
 * Comments and READMEs cite the documentation by path and heading (`docs/product/kiosk.md#alerts`),
 * so a renamed heading or a moved page must not leave them pointing at nothing.
 */
const files = trackedTextFiles();
const anchorsOf = new Map<string, Set<string>>();

function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) {
    found = markdownAnchors(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
    anchorsOf.set(file, found);
  }
  return found;
}

/** What is wrong with a citation of `target` (a path from the repository root, maybe `#anchor`), if anything. */
function problem(target: string): string | undefined {
  const [file, anchor] = target.split('#');
  if (!fs.existsSync(path.join(REPO_ROOT, file))) return 'no such file';
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  return anchors(file).has(anchor) ? undefined : `no heading with the anchor #${anchor}`;
}

interface Citation {
  where: string;
  target: string;
}

/** `docs/….md#anchor` written as a path from the root, in a comment or in running text. */
function plainCitations({ file, lines }: TextFile): Citation[] {
  return lines.flatMap((line, index) =>
    [...line.matchAll(/(?<![\w./-])docs\/[\w./-]+\.md(?:#[\w-]+)?/g)].map((match) => ({
      where: `${file}:${index + 1}`,
      target: match[0],
    })),
  );
}

/** Relative markdown links of a page (`[text](../docs/x.md#y)`, `(#y)`), resolved from the page. */
function markdownLinks({ file, lines }: TextFile): Citation[] {
  if (!file.endsWith('.md')) return [];
  let fenced = false;
  return lines.flatMap((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return [];
    return [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1])
      .filter((link) => !/^[a-z]+:/i.test(link))
      .map((link) => {
        const [linked, anchor] = link.split('#');
        const resolved = linked
          ? path.posix.normalize(path.posix.join(path.posix.dirname(file), linked))
          : file;
        return {
          where: `${file}:${index + 1}`,
          target: anchor === undefined ? resolved : `${resolved}#${anchor}`,
        };
      });
  });
}

describe('citations of the documentation', () => {
  it('finds the citations it checks (comments cite docs/product pages)', () => {
    const cited = files.flatMap(plainCitations).filter((c) => c.target.startsWith('docs/product/'));
    expect(cited.length).toBeGreaterThan(100);
  });

  it('every docs/<page>.md#<anchor> in code, comments and text names an existing page and heading', () => {
    const broken = files
      .flatMap(plainCitations)
      .map((citation) => ({ ...citation, problem: problem(citation.target) }))
      .filter((citation) => citation.problem)
      .map((citation) => `${citation.where}: ${citation.target}: ${citation.problem}`);
    expect(broken).toEqual([]);
  });

  it('every relative markdown link reaches an existing file and, for a page, an existing heading', () => {
    const broken = files
      .flatMap(markdownLinks)
      .map((citation) => ({ ...citation, problem: problem(citation.target) }))
      .filter((citation) => citation.problem)
      .map((citation) => `${citation.where}: ${citation.target}: ${citation.problem}`);
    expect(broken).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    const page = [
      '# Title',
      '## Upgrade checklist (Vite, `@module-federation/vite`, react-router, React)',
      '### Dialogs and errors',
      '## Dialogs and errors',
      '```',
      '# not a heading',
      '```',
      '<a id="explicit-anchor"></a>',
      '## Rights: [data export](x.md) — ¿Qué?',
    ].join('\n');
    expect([...markdownAnchors(page)]).toEqual([
      'title',
      'upgrade-checklist-vite-module-federationvite-react-router-react',
      'dialogs-and-errors',
      'dialogs-and-errors-1',
      'explicit-anchor',
      'rights-data-export--qué',
    ]);
  });
});
