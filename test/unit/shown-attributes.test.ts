import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balanceDriftToWrite, trackingShown } from '../../workflows/wallet/shown-attributes.js';

// Each search-attribute write is a history event and a visibility row with all its indexes: a run
// writes only what changes what it shows.

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

describe('ProcessStatus TRACKING and WalletId: written by the run that does not show them yet', () => {
  it('a new wallet, which shows nothing, writes them; a run continued as new, which shows them, does not', () => {
    assert.equal(trackingShown({ status: undefined, walletId: undefined }, 'WA_1'), false);
    assert.equal(trackingShown({ status: 'TRACKING', walletId: 'WA_1' }, 'WA_1'), true);
  });

  it('another status, or another wallet id, is written over', () => {
    assert.equal(trackingShown({ status: 'CREATING', walletId: 'WA_1' }, 'WA_1'), false);
    assert.equal(trackingShown({ status: 'TRACKING', walletId: 'WA_2' }, 'WA_1'), false);
    assert.equal(trackingShown({ status: 'TRACKING', walletId: undefined }, 'WA_1'), false);
  });
});
