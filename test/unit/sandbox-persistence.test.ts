import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSandbox } from '../../src/sandbox/server.js';

// The sandbox's state file holds secret keys and SSNs: only its owner may read it.

const mode = (file: string) => statSync(file).mode & 0o777;

describe('sandbox state file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-sandbox-state-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is written readable by its owner only, in a folder of the owner only, also over a file and a leftover that were not', async () => {
    const stateFile = join(dir, 'nested', 'sandbox.json');
    const sandbox = createSandbox({ apiKey: 'AK-PERM', secretKey: 'SK-PERM-0001', stateFile });
    await sandbox.listen(0);
    await sandbox.close();
    assert.ok(readFileSync(stateFile, 'utf8').includes('SK-PERM-0001'), 'the secret is in the file: hence the mode');
    assert.equal(mode(stateFile), 0o600);
    assert.equal(mode(join(dir, 'nested')), 0o700);

    // A file written by an earlier version (0644), and a temporary file left behind by a crash.
    chmodSync(stateFile, 0o644);
    writeFileSync(`${stateFile}.tmp`, '{}', { mode: 0o644 });
    const again = createSandbox({ apiKey: 'AK-PERM', secretKey: 'SK-PERM-0001', stateFile });
    await again.listen(0);
    await again.close();
    assert.equal(mode(stateFile), 0o600);
  });
});
