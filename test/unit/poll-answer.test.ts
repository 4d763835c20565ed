import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollOutcome } from '../../workflows/wallet/poll-answer.js';

// A poll's answer as histories recorded it (no kind) is read by its shape: each shape gets its kind.

describe("a wallet poll's answer", () => {
  it('gets its kind from the shape recorded in histories', () => {
    const cursor = { since: 5, seen: ['TR_1'] };
    assert.deepEqual(pollOutcome(undefined), { kind: 'none' });
    assert.deepEqual(pollOutcome('failed'), { kind: 'failed' });
    assert.deepEqual(pollOutcome({ changed: [], cursor }), { kind: 'changed', changed: [], cursor });
    assert.deepEqual(pollOutcome({ cannotList: true }), { kind: 'cannotList' });
    assert.deepEqual(pollOutcome({ notFound: true }), { kind: 'notFound' });
  });
});
