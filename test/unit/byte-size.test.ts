import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseByteSize } from '../../src/byte-size.js';

// WORKER_MEMORY sizes the workflow cache: a size that is not one is refused, never read as NaN.

describe('parseByteSize', () => {
  it('refuses a unit that is not one of its own, even a name every object has (toString, constructor)', () => {
    for (const text of ['1toString', '1constructor', '1valueOf', '1hasOwnProperty', '1isPrototypeOf', '5Mb', '1 xB'])
      assert.throws(() => parseByteSize(text), /is not a memory size/, text);
  });

  it('refuses a size too large to be a number of bytes', () => {
    assert.throws(() => parseByteSize(`${'9'.repeat(400)}Gi`), /is not a memory size/);
  });

  it('reads what orchestrators write', () => {
    assert.equal(parseByteSize('512Mi'), 512 * 1024 ** 2);
    assert.equal(parseByteSize(' 1.5Gi '), 1.5 * 1024 ** 3);
    assert.equal(parseByteSize('512m'), 512 * 1024 ** 2);
    assert.equal(parseByteSize('1G'), 1e9);
    assert.equal(parseByteSize('536870912'), 536870912);
  });
});
