// Our claim store's failures by their type name, so that workflow code never reports one as the
// provider's refusal. No imports: it is bundled into workflow code.

/** Why a claim could not be used: its bytes are not those referenced, it is gone, or it is sealed under a key this worker lacks. */
export type ClaimFailureReason = 'integrity' | 'gone' | 'key-missing';

export const CLAIM_FAILURE_TYPES: Readonly<Record<string, ClaimFailureReason>> = {
  ClaimIntegrityError: 'integrity',
  ClaimGoneError: 'gone',
  ClaimKeyMissingError: 'key-missing',
};

/** The claim store's reason for an activity failure of `type`; null when the failure is not the claim store's. */
export function claimFailureReason(type: string | null | undefined): ClaimFailureReason | null {
  return (type && CLAIM_FAILURE_TYPES[type]) || null;
}

/** What an operator does about each: the end user can do nothing but hand the input in again. */
export const CLAIM_FAILURE_HINTS: Readonly<Record<ClaimFailureReason, string>> = {
  integrity: 'the stored bytes are not those referenced: check the claim store for tampering or a mixed-up volume',
  gone: 'it is not in the claim store: check that clients and workers share one claim store (CLAIM_STORE_DIR or CLAIM_STORE_URL)',
  'key-missing':
    'it was sealed under a claim key this worker lacks: give workers and clients the same CLAIM_ENCRYPTION_KEY (and CLAIM_PREVIOUS_KEYS)',
};
