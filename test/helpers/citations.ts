import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Comments that cite something a reader cannot open: a document path missing from the
// repository, a section docs/provider-contract.md lacks, or the provider's own documents (which
// are not in the repository) cited bare. Used by test/unit/citations.test.ts.

export const SOURCE_DIRS = ['src', 'workflows', 'activities', 'worker', 'scripts', 'bench', 'test', 'deploy'];
const SKIP = ['test/histories', 'bench/results', 'node_modules'];
const SCRIPT = /\.(ts|mts|cts|js|mjs|cjs)$/;
const HASH_COMMENTED = /\.(sh|ya?ml|conf|toml)$|\/run$/;

export const CONTRACT = 'docs/provider-contract.md';
const SECTION = /§(?:OP-\d+|\d+(?:\.\d+)*)/g;
const DOC_PATH = /(?<![\w/.-])((?:\.{0,2}\/)?[\w][\w./-]*\.md)\b/g;
const BARE = [
  { pattern: /\bspec(?:ification)?\s+§?\d/i, what: 'a bare "spec N.N"' },
  { pattern: /\bopen-points?\b|\bopen points? \d/i, what: 'a bare "open-points"' },
  { pattern: /provider-interface/i, what: 'the provider\'s own "provider-interface"' },
  { pattern: /\bthe spec\b/i, what: 'a bare "the spec"' },
];

const MENTIONS = /\.md\b|§|spec|open[- ]point|provider-interface/i;

export interface Comment {
  file: string;
  line: number;
  text: string;
}
export interface BadCitation extends Comment {
  problem: string;
}

/** The sections docs/provider-contract.md defines: its headings and its bold rule labels. */
export function contractSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const line of markdown.split('\n')) {
    const defining =
      /^#{1,4} (§\S+)/.exec(line)?.[1] ?? /^- \*\*(§\S+?)[* ]/.exec(line)?.[1] ?? /^\| (§\S+) /.exec(line)?.[1];
    if (defining) for (const s of defining.match(SECTION) ?? []) sections.add(s);
  }
  return sections;
}

/** Every comment of a source file, with the line it starts on. */
export function commentsOf(file: string, source: string): Comment[] {
  if (SCRIPT.test(file)) {
    // The parser's own view of the file: every token's leading and trailing comments, so that
    // strings, templates and regular expressions that look like comments are not taken for them.
    const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
    const seen = new Map<number, Comment>();
    const take = (ranges: ts.CommentRange[] | undefined) => {
      for (const r of ranges ?? []) {
        if (seen.has(r.pos)) continue;
        seen.set(r.pos, {
          file,
          line: sf.getLineAndCharacterOfPosition(r.pos).line + 1,
          text: source.slice(r.pos, r.end),
        });
      }
    };
    const visit = (node: ts.Node) => {
      take(ts.getLeadingCommentRanges(source, node.pos));
      take(ts.getTrailingCommentRanges(source, node.end));
      for (const child of node.getChildren(sf)) visit(child);
    };
    visit(sf);
    return [...seen.values()].sort((a, b) => a.line - b.line);
  }
  if (HASH_COMMENTED.test(file)) {
    return source.split('\n').flatMap((text, i) => {
      const at = text.search(/(^|\s)#/);
      return at < 0 || /^#!/.test(text) ? [] : [{ file, line: i + 1, text: text.slice(at) }];
    });
  }
  return [];
}

/** What is wrong with the citations of these comments; `exists` answers for a repository path. */
export function badCitations(comments: Comment[], sections: Set<string>, exists: (path: string) => boolean) {
  const bad: BadCitation[] = [];
  for (const comment of comments) {
    const say = (problem: string) => bad.push({ ...comment, problem });
    for (const [, path] of comment.text.matchAll(DOC_PATH)) {
      if (/^https?:/.test(path!) || exists(path!.replace(/^\.\//, ''))) continue;
      say(`cites ${path}, which is not in the repository`);
    }
    for (const [section] of comment.text.matchAll(SECTION)) {
      if (!sections.has(section)) say(`cites ${section}, which ${CONTRACT} does not define`);
    }
    for (const { pattern, what } of BARE) {
      if (pattern.test(comment.text)) say(`${what} citation: cite ${CONTRACT} §… (or the docs file that holds it)`);
    }
  }
  return bad;
}

/** The source files the check reads, relative to the repository's root. */
export function sourceFiles(root: string): string[] {
  return SOURCE_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) =>
    (readdirSync(join(root, dir), { recursive: true }) as string[])
      .map((f) => join(dir, f))
      .filter((f) => !SKIP.some((skip) => f.startsWith(skip)) && (SCRIPT.test(f) || HASH_COMMENTED.test(f))),
  );
}

/** The whole repository's bad citations. */
export function repositoryBadCitations(root: string): BadCitation[] {
  const sections = contractSections(readFileSync(join(root, CONTRACT), 'utf8'));
  const comments = sourceFiles(root).flatMap((f) => {
    const source = readFileSync(join(root, f), 'utf8');
    // Parsing is the slow part: only files that mention something citable are parsed.
    return MENTIONS.test(source) ? commentsOf(f, source) : [];
  });
  return badCitations(comments, sections, (path) => existsSync(join(root, path)));
}
