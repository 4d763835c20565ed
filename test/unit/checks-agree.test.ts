import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { z } from 'zod';
import { checkAchFollowupInput, checkAchForm } from '../../workflows/ach-followup/checks.js';
import type { Check } from '../../workflows/lib/input-check.js';
import { zodFrom } from '../../workflows/lib/zod-from-check.schema.js';
import { checkCheckoutInput, checkPurchaseRedirect } from '../../workflows/checkout/checks.js';
import { checkDocumentSubmission, checkKycInput, checkValueSubmission } from '../../workflows/kyc/checks.js';
import { checkOnboardingInput, checkOnboardingLinkRequest } from '../../workflows/onboarding/checks.js';
import { checkProvisioningInput } from '../../workflows/provisioning/checks.js';
import { achFollowupInput, achForm } from '../../workflows/ach-followup/messages.schema.js';
import { checkoutInput, purchaseRedirect } from '../../workflows/checkout/messages.schema.js';
import { documentSubmission, kycInput, valueSubmission } from '../../workflows/kyc/messages.schema.js';
import { onboardingInput, onboardingLinkRequest } from '../../workflows/onboarding/messages.schema.js';
import { provisioningInput } from '../../workflows/provisioning/messages.schema.js';
import { openWalletInput, walletInput } from '../../workflows/wallet/inputs.schema.js';
import { checkOpenWalletInput, checkWalletInput } from '../../workflows/wallet/checks.js';
import { viaCheck, viaZod } from '../helpers/outcome.js';

// Workflows check their input and their updates' arguments with plain functions (workflows/<process>/checks.ts),
// the clients and the ingress with zod schemas that workflows/lib/zod-from-check.schema.ts builds
// from those checks (workflows/*/messages.schema.ts). Each message's schema is the one built from
// its check, and the same samples, valid and not, and samples changed at random in one field, go
// through both: they accept the same values and give back the same (defaults filled in, unknown
// keys left out), and they refuse the same values for the same field, in the same words where the
// check has its own.

/** zod's own wording (its checks without a message of ours): the plain checks word these their own way. */
const zodsOwnWords = /^(Invalid (input|option|string|URL|url)|Too (small|big)|Unrecognized key)/;

/** Values of every kind, and the valid samples' own values, to put in one field of a valid sample. */
function fieldValues(valid: unknown[]) {
  const seen = valid.flatMap((sample) => (sample && typeof sample === 'object' ? Object.values(sample) : []));
  return fc.oneof(
    fc.constantFrom(undefined, null, true, false, 0, 1, -1, 1.5, 99, 100, 1_000, 2 ** 53, Number.NaN, '', ' ', [], {}),
    fc.constantFrom(...seen),
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double(),
    fc.dictionary(fc.constantFrom('pollInitialMs', 'size', 'ref', 'x'), fc.oneof(fc.integer(), fc.string())),
  );
}

interface AgreeOptions {
  /** The workflow takes more than the schema asks (an int's workflowMin): what the schema takes, the check takes. */
  workflowLooser?: boolean;
}

function agree(
  name: string,
  schema: z.ZodType,
  check: Check<unknown>,
  valid: unknown[],
  invalid: unknown[],
  opts: AgreeOptions = {},
) {
  describe(name, () => {
    it('its zod schema is the one built from its check', () => {
      assert.equal(schema, zodFrom(check));
    });
    it(`accepts ${valid.length} valid samples as the zod schema does, with the same result`, () => {
      for (const sample of valid) {
        const [expected, actual] = [viaZod(schema, sample), viaCheck(check, sample)];
        assert.equal(expected.ok, true, `the zod schema takes ${JSON.stringify(sample)}: ${JSON.stringify(expected)}`);
        assert.deepStrictEqual(actual, expected, `${JSON.stringify(sample)}`);
      }
    });
    it(`refuses ${invalid.length} invalid samples as the zod schema does, for the same field`, () => {
      for (const sample of invalid) {
        const [expected, actual] = [viaZod(schema, sample), viaCheck(check, sample)];
        const shown = JSON.stringify(sample);
        assert.ok(!expected.ok, `the zod schema refuses ${shown}`);
        assert.ok(!actual.ok, `the plain check refuses ${shown} (zod: ${expected.field}: ${expected.message})`);
        assert.equal(actual.field, expected.field, `the field refused in ${shown}`);
        if (!zodsOwnWords.test(expected.message))
          assert.equal(actual.message, expected.message, `the words for ${shown}`);
      }
    });
    it('answers as the zod schema does when one field of a valid sample is changed (property)', () => {
      const objects = valid.filter((sample): sample is Record<string, unknown> => typeof sample === 'object');
      const keys = [...new Set(objects.flatMap((sample) => Object.keys(sample)))];
      const changed = fc
        .tuple(fc.constantFrom(...objects), fc.constantFrom(...keys), fieldValues(valid), fc.boolean())
        .map(([sample, key, value, drop]) => {
          const copy: Record<string, unknown> = { ...sample, [key]: value };
          if (drop) delete copy[key];
          return copy;
        });
      fc.assert(
        fc.property(changed, (sample) => {
          const [expected, actual] = [viaZod(schema, sample), viaCheck(check, sample)];
          const shown = `${JSON.stringify(sample)}: zod ${JSON.stringify(expected)}, check ${JSON.stringify(actual)}`;
          if (opts.workflowLooser && actual.ok && !expected.ok) return;
          assert.equal(actual.ok, expected.ok, shown);
          if (expected.ok) assert.deepStrictEqual(actual, expected, shown);
          else if (!actual.ok) {
            assert.equal(actual.field, expected.field, shown);
            if (!zodsOwnWords.test(expected.message)) assert.equal(actual.message, expected.message, shown);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
}

const sha256 = 'a'.repeat(64);
const ref = { ref: 'local:abc', size: 10, contentType: 'application/pdf', sha256 };
const timing = { pollInitialMs: 10, pollMaxMs: 20, reminderAfterMs: 30, deadlineMs: 40, stallAfterMs: 50 };
/** Samples wrong in one place each, for a process's timing. */
const badTimings = [
  { pollInitialMs: 9 },
  { pollMaxMs: 1.5 },
  { reminderAfterMs: '10' },
  { deadlineMs: Number.NaN },
  { stallAfterMs: Number.POSITIVE_INFINITY },
  { pollInitialMs: 2 ** 53 },
  { deadlineMs: null },
];

agree(
  'ACH follow-up input',
  achFollowupInput,
  checkAchFollowupInput,
  [
    { paymentMethodId: 'PA_1', accountId: 'AC_1' },
    { paymentMethodId: 'PM-x9', accountId: 'AC-2', timing: {} },
    { paymentMethodId: 'PM_1', accountId: 'AC_1', timing: { pollInitialMs: 10 }, extra: 'left out' },
    { paymentMethodId: 'PM_1', accountId: 'AC_1', timing },
    { paymentMethodId: 'PM_1', accountId: 'AC_1', timing: { ...timing, unknown: 1 } },
    { paymentMethodId: 'PM_1', accountId: 'AC_1', timing: undefined },
  ],
  [
    undefined,
    null,
    [],
    'PA_1',
    {},
    { paymentMethodId: 'XX_1', accountId: 'AC_1' },
    { paymentMethodId: 'PA_1', accountId: 'WA_1' },
    { paymentMethodId: 'PA_1' },
    { paymentMethodId: 'PA_1', accountId: 'AC_1', timing: null },
    { paymentMethodId: 'PA_1', accountId: 'AC_1', timing: [] },
    ...badTimings.map((t) => ({ paymentMethodId: 'PA_1', accountId: 'AC_1', timing: t })),
  ],
);

agree(
  'ACH form',
  achForm,
  checkAchForm,
  [ref, { ...ref, keyed: false, contentType: 'image/png', other: 1 }, { ...ref, size: 8_126_464 }],
  [
    {},
    { ...ref, ref: 'no colon' },
    { ...ref, ref: 'Local:x' },
    { ...ref, size: 0 },
    { ...ref, size: 8_126_465 },
    { ...ref, size: 1.5 },
    { ...ref, contentType: 'text/plain' },
    { ...ref, contentType: undefined },
    { ...ref, sha256: 'A'.repeat(64) },
    { ...ref, sha256: undefined },
    { ...ref, keyed: 'yes' },
  ],
);

const checkout = {
  orderRef: 'order-1',
  sourceAmount: '49.99',
  sourceCurrency: 'USD',
  destCurrency: 'BTC',
  dest: 'wallet:WA_1',
};
agree(
  'checkout input',
  checkoutInput,
  checkCheckoutInput,
  [
    checkout,
    { ...checkout, sourceAmount: 49.99 },
    { ...checkout, sourceAmount: '049.990' },
    { ...checkout, sourceAmount: { isLosslessNumber: true, value: '161176780.13' } },
    { ...checkout, dest: 'account:AC-1', userId: 'US_1', requireHigherLimits: true },
    { ...checkout, requireHigherLimits: false, timing: { pollMaxMs: 100 } },
    { ...checkout, redirectUrl: '  https://shop.example/done?x=1 ', failureRedirectUrl: 'https://shop.example/fail' },
    { ...checkout, redirectUrl: 'https://shop.exa\tmple/done' },
    { ...checkout, email: undefined },
  ],
  [
    null,
    { ...checkout, orderRef: 'has space' },
    { ...checkout, orderRef: 'x'.repeat(101) },
    { ...checkout, sourceAmount: '0' },
    { ...checkout, sourceAmount: '-1' },
    { ...checkout, sourceAmount: 'ten' },
    { ...checkout, sourceAmount: Number.NaN },
    { ...checkout, sourceAmount: undefined },
    { ...checkout, sourceCurrency: 'usd' },
    { ...checkout, destCurrency: 'B' },
    { ...checkout, dest: 'WA_1' },
    { ...checkout, dest: 'transfer:TF_1' },
    { ...checkout, redirectUrl: 'not a url' },
    { ...checkout, failureRedirectUrl: 5 },
    { ...checkout, userId: 'AC_1' },
    { ...checkout, requireHigherLimits: 'yes' },
    { ...checkout, requireHigherLimits: true },
    { ...checkout, timing: { pollInitialMs: 1 } },
    { ...checkout, email: 'someone@example.com' },
    { ...checkout, postalCode: '12345' },
    { ...checkout, unexpected: 1 },
  ],
);

agree(
  'purchase redirect',
  purchaseRedirect,
  checkPurchaseRedirect,
  [{ orderId: 'WO_1' }, { transferId: 'TF-1' }, { orderId: 'WO_1', transferId: 'TF_1' }],
  [{}, { orderId: 'TF_1' }, { transferId: 'WO_1' }, { orderId: 'WO_1', other: 1 }, { transferId: undefined }, 'WO_1'],
);

agree(
  'KYC input',
  kycInput,
  checkKycInput,
  [
    { accountId: 'AC_1' },
    { accountId: 'AC_1', maxAttemptsPerField: 1, priorSubmissions: { individualSsn: 2, other: 0 } },
    { accountId: 'AC_1', maxAttemptsPerField: 50, timing, stale: true },
  ],
  [
    { accountId: 'US_1' },
    { accountId: 'AC_1', maxAttemptsPerField: 0 },
    { accountId: 'AC_1', maxAttemptsPerField: 51 },
    { accountId: 'AC_1', maxAttemptsPerField: 2.5 },
    { accountId: 'AC_1', priorSubmissions: { individualSsn: -1 } },
    { accountId: 'AC_1', priorSubmissions: { individualSsn: '1' } },
    { accountId: 'AC_1', priorSubmissions: [1] },
    { accountId: 'AC_1', priorSubmissions: null },
    ...badTimings.map((t) => ({ accountId: 'AC_1', timing: t })),
  ],
);

const value = { ...ref, contentType: 'text/plain; charset=utf-8', keyed: true, size: 9 };
agree(
  'KYC value submission',
  valueSubmission,
  checkValueSubmission,
  [
    { fieldId: 'individualSsn', value },
    { fieldId: 'individualSsn', value: { ...value, size: 1024, extra: 1 }, extra: 2 },
  ],
  [
    { fieldId: 'Individual', value },
    { fieldId: 'a', value },
    { fieldId: 'individualSsn' },
    { fieldId: 'individualSsn', value: { ...value, keyed: false } },
    { fieldId: 'individualSsn', value: { ...value, keyed: undefined } },
    { fieldId: 'individualSsn', value: { ...value, contentType: 'application/pdf' } },
    { fieldId: 'individualSsn', value: { ...value, size: 0 } },
    { fieldId: 'individualSsn', value: { ...value, size: 1025 } },
    { fieldId: 'individualSsn', value: { ...value, sha256: 'short' } },
  ],
);

agree(
  'KYC document submission',
  documentSubmission,
  checkDocumentSubmission,
  [
    { fieldId: 'individualGovernmentId', document: ref },
    { fieldId: 'individualGovernmentId', document: ref, documentType: 'GOVT_ID', documentSubType: 'BACK' },
    { fieldId: 'individualGovernmentId', document: { ...ref, keyed: false }, documentType: undefined },
  ],
  [
    { fieldId: 'individualGovernmentId', document: { ...ref, contentType: 'text/plain' } },
    { fieldId: 'individualGovernmentId', document: { ...ref, size: 0 } },
    { fieldId: 'individualGovernmentId', document: { ...ref, size: 8_126_465 } },
    { fieldId: 'individualGovernmentId', document: ref, documentType: 'govt id' },
    { fieldId: 'individualGovernmentId', document: ref, documentSubType: 'SIDE' },
    { fieldId: 'individualGovernmentId', document: 'local:abc' },
    { fieldId: 5, document: ref },
  ],
);

agree(
  'onboarding input',
  onboardingInput,
  checkOnboardingInput,
  [
    { userRef: 'user.1', country: 'US' },
    { userRef: 'u', country: 'DE', timing: { reminderAfterMs: 10 }, other: 1 },
  ],
  [
    { userRef: '', country: 'US' },
    { userRef: 'a b', country: 'US' },
    { userRef: 'u', country: 'usa' },
    { userRef: 'u' },
    ...badTimings.map((t) => ({ userRef: 'u', country: 'US', timing: t })),
  ],
);

agree(
  'onboarding link request',
  onboardingLinkRequest,
  checkOnboardingLinkRequest,
  [{ userRef: 'user-1' }, { userRef: 'user-1', other: true }],
  [{}, { userRef: 1 }, { userRef: 'x'.repeat(101) }, null],
);

agree(
  'provisioning input',
  provisioningInput,
  checkProvisioningInput,
  [
    { clientRef: 'device-1', secret: { ...ref, contentType: 'text/plain' }, country: 'US' },
    { clientRef: 'device-1', secret: ref, country: 'FR', activityTimeoutMs: 1_000, other: 1 },
  ],
  [
    { clientRef: 'device 1', secret: ref, country: 'US' },
    { clientRef: 'device-1', country: 'US' },
    { clientRef: 'device-1', secret: { ...ref, contentType: '' }, country: 'US' },
    { clientRef: 'device-1', secret: ref, country: 'U' },
    { clientRef: 'device-1', secret: ref, country: 'US', activityTimeoutMs: 999 },
  ],
);

const follower = { walletId: 'WA_1', pollIntervalMs: 100 };
agree(
  'wallet follower input',
  walletInput,
  checkWalletInput,
  [
    follower,
    { ...follower, name: 'alice', pollMaxMs: 5_400_000, reconcileIntervalMs: 1_000, maxHistoryEvents: 50 },
    // What a run carries across continue-as-new is not the check's: it is left out of what it returns.
    { ...follower, carried: { version: 3 }, inbox: [], opened: true, quietPolls: 2, listing: false },
  ],
  [
    undefined,
    {},
    { ...follower, walletId: 'AC_1' },
    { ...follower, pollIntervalMs: 0 },
    { ...follower, pollIntervalMs: 1.5 },
    { ...follower, pollMaxMs: '100' },
    { ...follower, reconcileIntervalMs: -1_000 },
    { ...follower, maxHistoryEvents: 0 },
    { ...follower, name: 1 },
  ],
  { workflowLooser: true },
);

const opening = { name: 'alice', pollIntervalMs: 100 };
agree(
  'open-wallet input',
  openWalletInput,
  checkOpenWalletInput,
  [
    opening,
    { ...opening, name: '  bob  ', type: 'SAVINGS', notes: 'n', pollMaxMs: 100, reconcileIntervalMs: 1_000 },
    { ...opening, name: 'x'.repeat(256), notes: 'y'.repeat(2000), other: 1 },
  ],
  [
    undefined,
    { pollIntervalMs: 100 },
    { ...opening, name: '   ' },
    { ...opening, name: 'x'.repeat(257) },
    { ...opening, type: 'CHECKING' },
    { ...opening, notes: 'y'.repeat(2001) },
    { ...opening, pollIntervalMs: 99 },
    { ...opening, reconcileIntervalMs: 10 },
  ],
);
