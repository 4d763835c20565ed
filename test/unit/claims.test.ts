import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { seal } from '../../src/claims/envelope.js';
import {
  ClaimGoneError,
  ClaimIntegrityError,
  ClaimKeyMissingError,
  ClaimUnavailableError,
  LocalClaimStore,
  putValue,
} from '../../src/claims/store.js';
import { assertFields } from '../helpers/assert.js';

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
    assertFields(ref, { size: 14, contentType: 'application/pdf' });
    assert.equal((await store.get(ref)).toString(), '%PDF-1.4 hello');
    const ssn = await putValue(store, '123-45-6789');
    assert.equal((await store.get(ssn)).toString('utf8'), '123-45-6789');
    assert.equal(JSON.stringify(ssn).includes('123-45-6789'), false, 'the reference does not carry the value');
    // Nor its plain hash, which trying all nine-digit numbers would reverse.
    assert.notEqual(ssn.sha256, createHash('sha256').update('123-45-6789').digest('hex'));
    assert.equal(ssn.keyed, true);
    assert.notEqual(
      (await putValue(new LocalClaimStore(`${dir}-other`), '123-45-6789')).sha256,
      ssn.sha256,
      'each store has its own key',
    );
  });

  it('refuses bytes that are not the ones referenced, and references it does not know', async () => {
    const ref = await store.put(Buffer.from('original'), 'text/plain');
    writeFileSync(join(dir, ref.ref.slice('local:'.length)), 'tampered');
    await assert.rejects(
      store.get(ref),
      (e: unknown) => e instanceof ClaimIntegrityError && /not a sealed claim/.test(e.message),
    );
    // Sealed bytes of another claim, moved under this name, do not open either.
    const other = await store.put(Buffer.from('other'), 'text/plain');
    copyFileSync(join(dir, other.ref.slice('local:'.length)), join(dir, ref.ref.slice('local:'.length)));
    await assert.rejects(
      store.get(ref),
      (e: unknown) => e instanceof ClaimIntegrityError && /does not open/.test(e.message),
    );
    await assert.rejects(store.get({ ...ref, ref: 's3:bucket-key' }), ClaimIntegrityError);
    await assert.rejects(store.get({ ...ref, ref: `local:${'0'.repeat(64)}` }), ClaimGoneError);
    const value = await putValue(store, '1990-01-01');
    await assert.rejects(
      store.get({ ...value, keyed: false }),
      ClaimIntegrityError,
      'a keyed digest is checked as keyed',
    );
  });

  it('keeps nothing in plain text: each claim sealed under a data key of its own, wrapped by the claim key', async () => {
    const key = randomBytes(32);
    const sealed = new LocalClaimStore(`${dir}-sealed`, { key });
    const ssn = await putValue(sealed, '078-05-1120', 'AC_PERSON1');
    const doc = await sealed.put(Buffer.from('%PDF passport of Jane Roe'), 'application/pdf', {
      subject: 'AC_PERSON1',
    });
    const onDisk = readdirSync(`${dir}-sealed`)
      .map((f) => readFileSync(join(`${dir}-sealed`, f)).toString('latin1'))
      .join('\n');
    for (const plain of ['078-05-1120', 'Jane Roe', 'PDF'])
      assert.ok(!onDisk.includes(plain), `${plain} is not on disk`);
    assert.ok(
      !readdirSync(`${dir}-sealed`).includes('.claim-key'),
      'with CLAIM_ENCRYPTION_KEY no claim key is kept beside the claims',
    );
    assert.equal((await sealed.get(ssn)).toString(), '078-05-1120');
    // Another key does not open them; after a rotation the previous key still does.
    await assert.rejects(
      new LocalClaimStore(`${dir}-sealed`, { key: randomBytes(32) }).get(doc),
      /neither CLAIM_ENCRYPTION_KEY nor one of CLAIM_PREVIOUS_KEYS/,
    );
    const rotated = new LocalClaimStore(`${dir}-sealed`, { key: randomBytes(32), previousKeys: [key] });
    assert.equal((await rotated.get(doc)).toString(), '%PDF passport of Jane Roe');
    rmSync(`${dir}-sealed`, { recursive: true, force: true });
  });

  it('with CLAIM_ENCRYPTION_KEY keeps no key beside the claims: personal values are digested under a key derived from it', async () => {
    const folder = `${dir}-derived`;
    const key = randomBytes(32);
    const keyed = new LocalClaimStore(folder, { key });
    const ssn = await putValue(keyed, '078-05-1120', 'AC_PERSON2');
    assert.equal((await keyed.get(ssn)).toString(), '078-05-1120');
    assert.deepEqual(
      readdirSync(folder).filter((f) => f.startsWith('.')),
      [],
      'no key file of any kind beside the claims',
    );
    // The digest depends on the claim key alone, as on S3: another folder, the same key, the same digest.
    assert.equal((await putValue(new LocalClaimStore(`${folder}-2`, { key }), '078-05-1120')).sha256, ssn.sha256);
    assert.notEqual(
      (await putValue(new LocalClaimStore(`${folder}-2`, { key: randomBytes(32) }), '078-05-1120')).sha256,
      ssn.sha256,
    );
    rmSync(folder, { recursive: true, force: true });
    rmSync(`${folder}-2`, { recursive: true, force: true });
  });

  it('reads personal values that a store with a .hmac-key (before the key was derived) digested, and makes no such file', async () => {
    const folder = `${dir}-legacy`;
    const key = randomBytes(32);
    // What the earlier store left: a .hmac-key file, a claim sealed under the claim key, its digest under that file's key.
    mkdirSync(folder, { recursive: true });
    const legacyKey = randomBytes(32);
    writeFileSync(join(folder, '.hmac-key'), legacyKey);
    const name = randomBytes(32).toString('hex');
    writeFileSync(join(folder, name), seal(Buffer.from('123-45-6789'), key, name));
    writeFileSync(join(folder, `${name}.meta`), JSON.stringify({ createdAt: Date.now(), subject: 'AC_OLD' }));
    const old = {
      ref: `local:${name}`,
      size: 11,
      contentType: 'text/plain; charset=utf-8',
      sha256: createHmac('sha256', legacyKey).update('123-45-6789').digest('hex'),
      keyed: true,
    };
    const keyed = new LocalClaimStore(folder, { key });
    assert.equal((await keyed.get(old)).toString(), '123-45-6789', 'a value stored before the upgrade still verifies');
    // New values are digested under the derived key, not the file's.
    const fresh = await putValue(keyed, '123-45-6789');
    assert.notEqual(fresh.sha256, old.sha256);
    assert.equal((await keyed.get(fresh)).toString(), '123-45-6789');
    await assert.rejects(
      keyed.get({ ...old, sha256: createHmac('sha256', randomBytes(32)).update('123-45-6789').digest('hex') }),
      ClaimIntegrityError,
    );
    // Once the operator deletes the file (after CLAIM_RETENTION), nothing makes it again.
    rmSync(join(folder, '.hmac-key'));
    await keyed.get(fresh);
    await putValue(keyed, '987-65-4321');
    assert.ok(!readdirSync(folder).includes('.hmac-key'));
    rmSync(folder, { recursive: true, force: true });
  });

  // The rotation of docs/security.md: first every process gets the new key as a previous key, then the
  // writing key changes. During the second rollout, processes of both phases share the store.
  it('rotates in two phases: a claim key listed as previous but not yet writing reads what the other phase wrote', async () => {
    const folder = `${dir}-rotation`;
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const phase1 = new LocalClaimStore(folder, { key: oldKey, previousKeys: [newKey] });
    const phase2 = new LocalClaimStore(folder, { key: newKey, previousKeys: [oldKey] });
    const byPhase1 = [
      await putValue(phase1, '078-05-1120', 'AC_ROT'),
      await phase1.put(Buffer.from('%PDF old'), 'application/pdf'),
    ];
    const byPhase2 = [
      await putValue(phase2, '987-65-4321', 'AC_ROT'),
      await phase2.put(Buffer.from('%PDF new'), 'application/pdf'),
    ];
    assert.deepEqual(
      await Promise.all(byPhase1.map(async (r) => (await phase2.get(r)).toString())),
      ['078-05-1120', '%PDF old'],
      'the new writer reads the old',
    );
    assert.deepEqual(
      await Promise.all(byPhase2.map(async (r) => (await phase1.get(r)).toString())),
      ['987-65-4321', '%PDF new'],
      'the old writer, with the new key as previous, reads the new',
    );
    // Why phase 1 comes first: a process that has only the old key cannot read the new writer's claims.
    await assert.rejects(
      new LocalClaimStore(folder, { key: oldKey }).get(byPhase2[1]!),
      (e: unknown) =>
        e instanceof ClaimKeyMissingError &&
        e instanceof ClaimUnavailableError &&
        /CLAIM_PREVIOUS_KEYS/.test(e.message),
    );
    // After the retention, the old key is dropped: the new writer's claims need nothing else.
    assert.equal((await new LocalClaimStore(folder, { key: newKey }).get(byPhase2[0]!)).toString(), '987-65-4321');
    rmSync(folder, { recursive: true, force: true });
  });

  it("deletes claims (again is no error), erases one person's claims on request, and sweeps old ones", async () => {
    const folder = `${dir}-life`;
    const keyed = new LocalClaimStore(folder, { key: randomBytes(32) });
    const a1 = await putValue(keyed, '111-22-3333', 'AC_A');
    const a2 = await keyed.put(Buffer.from('id card'), 'image/jpeg', { subject: 'AC_A' });
    const b1 = await putValue(keyed, '444-55-6666', 'AC_B');
    await keyed.delete([a1]);
    await keyed.delete([a1]);
    await assert.rejects(keyed.get(a1), /not in the claim store .*deleted after the provider accepted it/);
    assert.equal(await keyed.eraseSubject('AC_A'), 1);
    await assert.rejects(keyed.get(a2), ClaimGoneError);
    assert.equal((await keyed.get(b1)).toString(), '444-55-6666', "another person's claims stay");
    assert.equal(await keyed.eraseSubject('AC_NOBODY'), 0);
    await assert.rejects(keyed.eraseSubject(''), /give the subject/);
    assert.equal(await keyed.sweep(Date.now() - 60_000), 0, 'nothing is older than a minute');
    assert.equal(await keyed.sweep(Date.now() + 1), 1);
    assert.deepEqual(
      readdirSync(folder).filter((f) => !f.startsWith('.')),
      [],
      'no file of a claim is left',
    );
    rmSync(folder, { recursive: true, force: true });
  });

  it('erases and sweeps what a write interrupted by a crash left: `<name>.tmp` (sealed) and `<name>.meta.tmp` (the subject in plain text)', async () => {
    const folder = `${dir}-crash`;
    const keyed = new LocalClaimStore(folder, { key: randomBytes(32) });
    // A crash after the metadata, while the sealed claim was being written: its .tmp beside a .meta.
    const half = (await putValue(keyed, '111-22-3333', 'AC_CRASH')).ref.slice('local:'.length);
    const sealedBytes = readFileSync(join(folder, half));
    rmSync(join(folder, half));
    writeFileSync(join(folder, `${half}.tmp`), sealedBytes.subarray(0, 20));
    // A crash while the metadata was being written: nothing but its .meta.tmp.
    const early = randomBytes(32).toString('hex');
    writeFileSync(join(folder, `${early}.meta.tmp`), JSON.stringify({ createdAt: Date.now(), subject: 'AC_CRASH' }));
    // Cut off mid-write: the subject is there, the JSON is not whole.
    const cut = randomBytes(32).toString('hex');
    writeFileSync(join(folder, `${cut}.meta.tmp`), `{"createdAt":${Date.now()},"subject":"AC_CRASH"`);
    // Another person's interrupted write stays through this erasure.
    const other = randomBytes(32).toString('hex');
    writeFileSync(join(folder, `${other}.meta.tmp`), JSON.stringify({ createdAt: Date.now(), subject: 'AC_CRASH2' }));
    writeFileSync(join(folder, `${other}.tmp`), sealedBytes.subarray(0, 20));

    assert.equal(await keyed.eraseSubject('AC_CRASH'), 3);
    assert.deepEqual(
      readdirSync(folder)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      [`${other}.meta.tmp`, `${other}.tmp`],
      "nothing of AC_CRASH's is left; AC_CRASH2's is",
    );
    assert.equal(await keyed.sweep(Date.now() - 60_000), 0, 'a fresh interrupted write is not swept');
    // Whatever a leftover holds (an empty or cut-off file), its age is the file's own.
    const empty = randomBytes(32).toString('hex');
    writeFileSync(join(folder, `${empty}.meta.tmp`), '');
    assert.equal(await keyed.sweep(Date.now() + 1), 2);
    assert.deepEqual(
      readdirSync(folder).filter((f) => !f.startsWith('.')),
      [],
      'no file of an interrupted write is left',
    );
    rmSync(folder, { recursive: true, force: true });
  });

  it('leaves nothing behind when a claim cannot be stored (here: a claim key of the wrong size)', async () => {
    const folder = `${dir}-badkey`;
    const store16 = new LocalClaimStore(folder, { key: randomBytes(16) });
    await assert.rejects(store16.put(Buffer.from('123-45-6789'), 'text/plain', { subject: 'AC_FAIL' }));
    assert.deepEqual(readdirSync(folder), [], 'no metadata naming the subject is left without its claim');
    rmSync(folder, { recursive: true, force: true });
  });
});
