import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeClientFiles } from '../../scripts/lib/client-env.js';

// The client files hold keys: readable by their owner only, also when a run before left them
// readable by others (writeFileSync's mode applies only to a file it creates).

const settings = {
  temporalAddress: '127.0.0.1:7233',
  namespace: 'default',
  taskQueue: 'payflows',
  payloadKey: 'payload-key',
  claimsDir: '/tmp/claims',
  claimKey: 'claim-key',
  sandboxPort: '8080',
  uiPort: '8233',
};

describe('client files', { skip: process.platform === 'win32' && 'POSIX file modes' }, () => {
  it('are 0600 after writing, though they existed as 0644', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-env-'));
    try {
      for (const name of ['client.env', 'payload.key', 'claim.key'])
        writeFileSync(join(dir, name), 'old', { mode: 0o644 });
      const files = writeClientFiles(dir, settings);
      for (const path of Object.values(files)) assert.equal(statSync(path).mode & 0o777, 0o600, path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
