import { trackedTextFiles } from './repo-text';

/**
 * The repository explains itself: comments, READMEs, docs and test names cite its own pages
 * (`docs/product/<page>.md#<anchor>`, `docs/architecture.md`, `docs/adr/…`) or say the rule in
 * words — never a specification, an architecture document or an issue tracker that a clone does not
 * have. Wire names (`pacient`, `rol`) are not the concern here.
 */
const RULES: { name: string; pattern: RegExp; instead: string }[] = [
  {
    // The word is spelled [S]PEC so that a search for it finds no hit in this file.
    name: 'a section of a specification outside the repository',
    pattern: /\b[S]PEC\b|§\s*\d/,
    instead: 'cite docs/product/<page>.md#<anchor> or say the rule',
  },
  {
    name: 'an architecture document outside the repository',
    pattern: /\bARCHITECTURE\b/,
    instead: 'cite docs/architecture.md or docs/adr/<record>.md',
  },
  {
    name: 'an issue number',
    pattern: /\b[Ii]ssues?\s*#?\d+/,
    instead: 'say what the rule is, or cite the docs page that holds it',
  },
  {
    // A hash and a number as an issue or pull request; not a colour, an HTML entity, a URL
    // fragment, a standard's number or a markdown heading.
    name: 'an issue or pull-request reference',
    pattern: /(?<![\w&#/'":=-])#\d{1,5}(?![\w;'"])/,
    instead: 'say what is meant (e.g. "the first worker"), or cite the docs page',
  },
];

/** This file names the patterns it forbids. */
const SELF = 'scripts/docs/own-words.test.ts';

describe('the repository explains itself in its own words', () => {
  const files = trackedTextFiles().filter(({ file }) => file !== SELF);

  it('reads the tracked files it guards', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.some(({ file }) => file === 'docs/product/README.md')).toBe(true);
  });

  it.each(RULES)('no comment, README, doc or test name cites $name', ({ pattern, instead }) => {
    const found = files.flatMap(({ file, lines }) =>
      lines.flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    if (found.length > 0) {
      throw new Error(`${found.length} line(s) to rewrite (${instead}):\n${found.join('\n')}`);
    }
  });

  it('the issue-reference rules tell references from colours, entities and standards', () => {
    const [, , issueWords, hashRef] = RULES.map((rule) => rule.pattern);
    const hash = (rest: string) => `#${rest}`; // keeps "#<digit>" out of this file's text
    const references = [`see ${hash('28')}`, `(${hash('11')})`, `worker ${hash('1')} in-process`];
    expect(references.filter((text) => !hashRef.test(text))).toEqual([]);
    expect(
      ['issue 18', `Issue 11 §3`, `issues ${hash('4')}`].filter((text) => !issueWords.test(text)),
    ).toEqual([]);
    const innocent = [
      `color: ${hash('111')};`,
      `color: '${hash('555')}'`,
      `&${hash('39')};`,
      `PKCS${hash('1')}`,
      'page.md#alerts',
      '# Title',
    ];
    expect(innocent.filter((text) => hashRef.test(text) || issueWords.test(text))).toEqual([]);
  });
});
