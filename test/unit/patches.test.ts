import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import * as register from '../../workflows/patches.js';
import { HISTORIES_DIR } from '../../scripts/lib/history-file.js';
import { decrypted } from '../helpers/history.js';

/** The key the recorded histories were encrypted with (scripts/replay.ts reads the same file). */
const HISTORIES_KEY = readFileSync(join(HISTORIES_DIR, 'payload-key.txt'), 'utf8').trim();

// The ids (workflows/patch-ids.ts) are the one place a patch id is spelled: every patched() or
// deprecatePatch() in workflows/ names one of its constants, and what it says of each patch (the
// files that use it, the histories that cover it) holds.

const constants = new Map(
  Object.entries(register as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  ),
);
const ids = new Set(register.PATCHES.map((patch) => patch.id));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** What is wrong with the patch calls in one source file, one line each. */
function patchCallProblems(file: string, source: string): string[] {
  const imported = new Set(
    [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(?:\.\.?\/)+patch-ids\.js'/g)].flatMap((m) =>
      m[1]!.split(',').map((name) => name.trim()),
    ),
  );
  return [...source.matchAll(/\b(patched|deprecatePatch)\(\s*([^)]*?)\s*\)/g)].flatMap(([, call, arg]) => {
    if (/^['"`]/.test(arg!))
      return [`${file}: ${call}(${arg}) names a bare string: use a constant of workflows/patch-ids.ts`];
    if (!imported.has(arg!)) return [`${file}: ${call}(${arg}) is not a constant imported from workflows/patch-ids.ts`];
    if (!ids.has(constants.get(arg!) ?? ''))
      return [`${file}: ${call}(${arg}) names an id the register's PATCHES lacks`];
    return [];
  });
}

describe('the register of patches', () => {
  it('every patched()/deprecatePatch() in workflows/ names a constant of the register', () => {
    const files = sources('workflows').filter(
      (file) => file !== join('workflows', 'patches.ts') && file !== join('workflows', 'patch-ids.ts'),
    );
    const problems = files.flatMap((file) => patchCallProblems(file, readFileSync(file, 'utf8')));
    assert.deepEqual(problems, []);
    const calls = files.filter((file) => /\bpatched\(/.test(readFileSync(file, 'utf8')));
    assert.ok(calls.length >= 4, `the scan sees the calls (${calls.join(', ')})`);
  });

  it('the scan refuses a bare string, an unknown id and a constant from elsewhere', () => {
    const lines = [
      "import { patched } from '@temporalio/workflow';",
      "import { RECONCILE_PATCH } from '../patch-ids.js';",
      "import { OTHER } from './elsewhere.js';",
      "patched('wallet-reconcile'); patched(OTHER); deprecatePatch(`x`); patched(RECONCILE_PATCH);",
    ];
    assert.equal(patchCallProblems('probe.ts', lines.join('\n')).length, 3);
  });

  it('every constant is in PATCHES once, and every entry has what a reader needs', () => {
    assert.deepEqual([...constants.values()].sort(), [...ids].sort());
    assert.equal(ids.size, register.PATCHES.length, 'no id is listed twice');
    for (const patch of register.PATCHES) {
      assert.match(patch.introduced.date, /^\d{4}-\d{2}-\d{2}$/, patch.id);
      assert.match(patch.introduced.commit, /^[0-9a-f]{7,40}$/, patch.id);
      assert.ok(patch.changed.length > 0, patch.id);
    }
  });

  it("each entry's files use it", () => {
    for (const patch of register.PATCHES) {
      const name = [...constants].find(([, id]) => id === patch.id)![0];
      for (const file of patch.usedIn) {
        assert.ok(existsSync(file), `${patch.id}: ${file} does not exist`);
        assert.match(
          readFileSync(file, 'utf8'),
          new RegExp(`(patched|deprecatePatch)\\(${name}\\)`),
          `${patch.id}: ${file}`,
        );
      }
    }
  });

  it('each listed history exists, and holds the marker or not as listed', async () => {
    const codec = new EncryptionCodec(Buffer.from(HISTORIES_KEY, 'base64'));
    const markers = async (file: string) => {
      const history = await decrypted(historyFromJSON(JSON.parse(readFileSync(file, 'utf8'))), codec);
      return history.events!.flatMap((event) => {
        const data = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return data ? [(JSON.parse(Buffer.from(data).toString()) as { id: string }).id] : [];
      });
    };
    for (const patch of register.PATCHES) {
      for (const [name, expected] of [
        ...patch.histories.withMarker.map((name) => [name, true] as const),
        ...patch.histories.before.map((name) => [name, false] as const),
      ]) {
        const file = join(HISTORIES_DIR, name);
        assert.ok(existsSync(file), `${patch.id}: ${file} does not exist`);
        assert.equal((await markers(file)).includes(patch.id), expected, `${patch.id}: the marker in ${file}`);
      }
    }
  });
});
