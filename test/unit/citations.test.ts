import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { badCitations, commentsOf, CONTRACT, contractSections, repositoryBadCitations } from '../helpers/citations.js';

// Every citation in a comment resolves to something in the repository: a document path that
// exists, a section that docs/provider-contract.md defines; never the provider's own documents,
// which a reader of this repository cannot open.

const sections = contractSections(readFileSync(CONTRACT, 'utf8'));

describe('citations in comments', () => {
  it('the contract defines its sections, rules and open points', () => {
    for (const s of ['§1', '§2.1', '§2.8', '§3.2', '§4.10', '§5.4', '§6.4', '§7.1', '§8', '§9.3', '§OP-1', '§OP-11']) {
      assert.ok(sections.has(s), `${CONTRACT} defines ${s}`);
    }
    assert.ok(!sections.has('§4.12'), 'a section never written is not defined');
  });

  it('every comment in the sources cites what exists', () => {
    const bad = repositoryBadCitations('.');
    assert.deepEqual(
      bad.map((b) => `${b.file}:${b.line}: ${b.problem}`),
      [],
      'fix these comments: cite docs/provider-contract.md §N.N or a docs file that exists',
    );
  });

  it('finds a planted bad citation of each kind, and only in comments', () => {
    const source = [
      "const url = 'https://example.test/spec 3.2'; // fine: docs/provider-contract.md §3.2 and docs/money.md",
      '/** Retries per spec 7.1 and open-points "Errors". */',
      '// See provider-interface.md 4.3, docs/nowhere.md and docs/provider-contract.md §4.12.',
      'const text = `open-points in a template ${1 / 2} // not a comment`;',
      '# not TypeScript',
    ].join('\n');
    const found = badCitations(
      commentsOf('src/planted.ts', source),
      sections,
      (p) => p === 'docs/money.md' || p === CONTRACT,
    );
    assert.deepEqual(
      found.map((b) => `${b.line}: ${b.problem}`),
      [
        `2: a bare "spec N.N" citation: cite ${CONTRACT} §… (or the docs file that holds it)`,
        `2: a bare "open-points" citation: cite ${CONTRACT} §… (or the docs file that holds it)`,
        '3: cites provider-interface.md, which is not in the repository',
        '3: cites docs/nowhere.md, which is not in the repository',
        `3: cites §4.12, which ${CONTRACT} does not define`,
        `3: the provider's own "provider-interface" citation: cite ${CONTRACT} §… (or the docs file that holds it)`,
      ],
    );
    const yaml = badCitations(
      commentsOf('deploy/x.yaml', 'key: value # per spec 5.1\nurl: http://a#b'),
      sections,
      () => true,
    );
    assert.deepEqual(
      yaml.map((b) => b.line),
      [1],
    );
  });
});
