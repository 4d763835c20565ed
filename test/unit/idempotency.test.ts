import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { idempotencyKey } from '../../workflows/lib/idempotency.js';
import { sha256Hex, utf8 } from '../../workflows/lib/sha256.js';

const reference = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex');

describe('idempotency keys: a digest that workflow code can compute', () => {
  it('the pure SHA-256 agrees with node:crypto on strings of every kind', () => {
    const strings = [
      '',
      'abc',
      'open-wallet:user-4711',
      'é\n✓',
      '名前 😀 \u0000 \t',
      'lone \ud800 surrogate',
      'lone low \udc00 too',
      'a'.repeat(10_000),
    ];
    // Every length around the padding boundaries (55, 56, 63, 64 bytes...).
    for (let n = 0; n <= 130; n++) strings.push('x'.repeat(n));
    for (const s of strings) {
      assert.equal(sha256Hex(s), reference(s), `sha256 of ${JSON.stringify(s.slice(0, 20))} (${s.length} chars)`);
      assert.deepEqual(Buffer.from(utf8(s)), Buffer.from(s, 'utf8'), 'UTF-8 bytes as Node makes them');
    }
    for (let n = 0; n < 200; n += 7) {
      const bytes = randomBytes(n);
      assert.equal(sha256Hex(new Uint8Array(bytes)), reference(bytes), `${n} random bytes`);
    }
  });

  it('a key is 64 hex characters whatever the workflow id holds, and differs by workflow and step', () => {
    const ids = ['open-wallet:é\n✓', 'open-wallet:user-4711', `open-wallet:${'w'.repeat(5_000)}`, 'kyc:AC_1'];
    const keys = new Set<string>();
    for (const id of ids) {
      for (const step of ['create-wallet', 'reserve', 'r1/individualSsn/1']) {
        const key = idempotencyKey(id, step);
        assert.match(key, /^[0-9a-f]{64}$/);
        assert.equal(key, idempotencyKey(id, step), 'the same for every retry and replay');
        keys.add(key);
      }
    }
    assert.equal(keys.size, ids.length * 3);
    // The parts are kept apart: moving a separator gives another key.
    assert.notEqual(idempotencyKey('a/b', 'c'), idempotencyKey('a', 'b/c'));
  });
});
