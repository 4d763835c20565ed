import type { Refusal } from '../lib/refusal.js';

/**
 * docs/provider-contract.md §7.1 says only that a second creation fails; §OP-1 gives the status and type of a
 * refused request (400 ValidationException). A body the client validated before sending fails so
 * without naming a field at fault: that is the bound token. No provider errorCode is relied on.
 */
export function isSecondAccountCreation(refusal: Pick<Refusal, 'status' | 'type' | 'problematicField'>): boolean {
  return refusal.status === 400 && refusal.type === 'ValidationException' && !refusal.problematicField;
}
