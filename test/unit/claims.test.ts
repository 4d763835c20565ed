import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ClaimIntegrityError, LocalClaimStore, putValue } from '../../src/claims/store.js';

describe('claim store: what end users provide travels by reference', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-claims-'));
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}-other`, { recursive: true, force: true });
  });
  const store = new LocalClaimStore(dir);

  it('stores bytes and returns a reference with size, type and SHA-256 that reads them back', async () => {
    const ref = await store.put(Buffer.from('%PDF-1.4 hello'), 'application/pdf');
    assert.match(ref.ref, /^local:[0-9a-f]{64}$/);
    assert.deepEqual([ref.size, ref.contentType], [14, 'application/pdf']);
    assert.equal((await store.get(ref)).toString(), '%PDF-1.4 hello');
    const ssn = await putValue(store, '123-45-6789');
    assert.equal((await store.get(ssn)).toString('utf8'), '123-45-6789');
    assert.equal(JSON.stringify(ssn).includes('123-45-6789'), false, 'the reference does not carry the value');
    // Nor its plain hash, which trying all nine-digit numbers would reverse.
    assert.notEqual(ssn.sha256, createHash('sha256').update('123-45-6789').digest('hex'));
    assert.equal(ssn.keyed, true);
    assert.notEqual((await putValue(new LocalClaimStore(`${dir}-other`), '123-45-6789')).sha256, ssn.sha256, 'each store has its own key');
  });

  it('refuses bytes that are not the ones referenced, and references it does not know', async () => {
    const ref = await store.put(Buffer.from('original'), 'text/plain');
    writeFileSync(join(dir, ref.ref.slice('local:'.length)), 'tampered');
    await assert.rejects(store.get(ref), (e: unknown) => e instanceof ClaimIntegrityError && /not those referenced/.test(e.message));
    await assert.rejects(store.get({ ...ref, ref: 's3:bucket-key' }), ClaimIntegrityError);
    await assert.rejects(store.get({ ...ref, ref: `local:${'0'.repeat(64)}` }), /not in the claim store/);
    const value = await putValue(store, '1990-01-01');
    await assert.rejects(store.get({ ...value, keyed: false }), ClaimIntegrityError, 'a keyed digest is checked as keyed');
  });
});
