import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    await assert.rejects(store.get(ref), (e: unknown) => e instanceof ClaimIntegrityError && /not a sealed claim/.test(e.message));
    // Sealed bytes of another claim, moved under this name, do not open either.
    const other = await store.put(Buffer.from('other'), 'text/plain');
    copyFileSync(join(dir, other.ref.slice('local:'.length)), join(dir, ref.ref.slice('local:'.length)));
    await assert.rejects(store.get(ref), (e: unknown) => e instanceof ClaimIntegrityError && /does not open/.test(e.message));
    await assert.rejects(store.get({ ...ref, ref: 's3:bucket-key' }), ClaimIntegrityError);
    await assert.rejects(store.get({ ...ref, ref: `local:${'0'.repeat(64)}` }), /not in the claim store/);
    const value = await putValue(store, '1990-01-01');
    await assert.rejects(store.get({ ...value, keyed: false }), ClaimIntegrityError, 'a keyed digest is checked as keyed');
  });

  it('keeps nothing in plain text: each claim sealed under a data key of its own, wrapped by the claim key', async () => {
    const key = randomBytes(32);
    const sealed = new LocalClaimStore(`${dir}-sealed`, { key });
    const ssn = await putValue(sealed, '078-05-1120', 'AC_PERSON1');
    const doc = await sealed.put(Buffer.from('%PDF passport of Jane Roe'), 'application/pdf', { subject: 'AC_PERSON1' });
    const onDisk = readdirSync(`${dir}-sealed`).map((f) => readFileSync(join(`${dir}-sealed`, f)).toString('latin1')).join('\n');
    for (const plain of ['078-05-1120', 'Jane Roe', 'PDF']) assert.ok(!onDisk.includes(plain), `${plain} is not on disk`);
    assert.ok(!readdirSync(`${dir}-sealed`).includes('.claim-key'), 'with CLAIM_ENCRYPTION_KEY no claim key is kept beside the claims');
    assert.equal((await sealed.get(ssn)).toString(), '078-05-1120');
    // Another key does not open them; after a rotation the previous key still does.
    await assert.rejects(new LocalClaimStore(`${dir}-sealed`, { key: randomBytes(32) }).get(doc), /neither CLAIM_ENCRYPTION_KEY nor one of CLAIM_PREVIOUS_KEYS/);
    const rotated = new LocalClaimStore(`${dir}-sealed`, { key: randomBytes(32), previousKeys: [key] });
    assert.equal((await rotated.get(doc)).toString(), '%PDF passport of Jane Roe');
    rmSync(`${dir}-sealed`, { recursive: true, force: true });
  });

  it('deletes claims (again is no error), erases one person\'s claims on request, and sweeps old ones', async () => {
    const d = `${dir}-life`;
    const s = new LocalClaimStore(d, { key: randomBytes(32) });
    const a1 = await putValue(s, '111-22-3333', 'AC_A');
    const a2 = await s.put(Buffer.from('id card'), 'image/jpeg', { subject: 'AC_A' });
    const b1 = await putValue(s, '444-55-6666', 'AC_B');
    await s.delete([a1]);
    await s.delete([a1]);
    await assert.rejects(s.get(a1), /not in the claim store .*deleted after the provider accepted it/);
    assert.equal(await s.eraseSubject('AC_A'), 1);
    await assert.rejects(s.get(a2), ClaimIntegrityError);
    assert.equal((await s.get(b1)).toString(), '444-55-6666', 'another person\'s claims stay');
    assert.equal(await s.eraseSubject('AC_NOBODY'), 0);
    await assert.rejects(s.eraseSubject(''), /give the subject/);
    assert.equal(await s.sweep(Date.now() - 60_000), 0, 'nothing is older than a minute');
    assert.equal(await s.sweep(Date.now() + 1), 1);
    assert.deepEqual(readdirSync(d).filter((f) => !f.startsWith('.')), [], 'no file of a claim is left');
    rmSync(d, { recursive: true, force: true });
  });
});
