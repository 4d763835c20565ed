import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balanceDriftToWrite } from '../../workflows/wallet/drift-shown.js';

// Each BalanceDrift write is a history event and a visibility row: a reconciliation writes it only
// when what it found differs from what the run shows.

describe('BalanceDrift: written only when it changes', () => {
  it('a wallet that never drifted never writes it (unset counts as false)', () => {
    assert.equal(balanceDriftToWrite(undefined, false), undefined);
  });

  it('a wallet that agrees, as shown, writes nothing; one that drifts again, as shown, neither', () => {
    assert.equal(balanceDriftToWrite(false, false), undefined);
    assert.equal(balanceDriftToWrite(true, true), undefined);
  });

  it('a first drift writes true, and agreeing again writes false', () => {
    assert.equal(balanceDriftToWrite(undefined, true), true);
    assert.equal(balanceDriftToWrite(false, true), true);
    assert.equal(balanceDriftToWrite(true, false), false);
  });
});
