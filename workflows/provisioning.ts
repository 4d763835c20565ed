import { ActivityFailure, ApplicationFailure, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SessionActivities } from '../activities/sessions.js';
import { doneWithClaims } from './lib/claims.js';
import { AccountId } from '../src/temporal/search-attributes.js';
import { idempotencyKey } from './lib/idempotency.js';
import { CREATION_RETRY } from './lib/retry.js';
import { validate, showStatus } from './lib/process.js';
import { isSecondAccountCreation } from './lib/second-account.js';
import { provisioningInput, type ProvisioningInput, type ProvisioningResult, type ProvisioningState, provisioningStateQuery } from './messages/provisioning.js';

// Account provisioning for a client-held token (spec 5.3): registers the client's secret, then
// creates the token's one account. A retried creation (after a crash, say) carries the same
// idempotency key and so finds the same account; a token that already made an account meets the
// error of spec 7.1, which ends the process as ALREADY_BOUND rather than as a failure.


export async function provisioningWorkflow(raw: ProvisioningInput): Promise<ProvisioningResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(provisioningInput, raw);
  // Both calls create (credentials, then the account): bounded retries (CREATION_RETRY).
  const provider = proxyActivities<SessionActivities>({ startToCloseTimeout: input.activityTimeoutMs, retry: CREATION_RETRY });
  const state: ProvisioningState = { clientRef: input.clientRef, stage: 'REGISTERING', apiKey: null, accountId: null, outcome: null, error: null };
  setHandler(provisioningStateQuery, () => state);

  showStatus('REGISTERING', false);
  const { apiKey } = await provider.registerClientToken({ secret: input.secret });
  state.apiKey = apiKey;

  state.stage = 'CREATING_ACCOUNT';
  showStatus('CREATING_ACCOUNT', false);
  try {
    const { accountId } = await provider.createAccountWithToken({
      secret: input.secret,
      country: input.country,
      idempotencyKey: idempotencyKey(workflowInfo().workflowId, 'create-account'),
    });
    state.accountId = accountId;
    state.outcome = 'CREATED';
    upsertSearchAttributes([{ key: AccountId, value: accountId }]);
  } catch (err) {
    const failure = err instanceof ActivityFailure ? err.cause : undefined;
    const details = failure instanceof ApplicationFailure ? (failure.details?.[0] as Parameters<typeof isSecondAccountCreation>[0]) : undefined;
    if (!isSecondAccountCreation(details)) throw err;
    state.outcome = 'ALREADY_BOUND';
    state.error = `this token is already bound to an account (spec 7.1): ${failure!.message}`;
  }
  // The client keeps its secret; this copy in the claim store has served.
  await doneWithClaims([input.secret]);
  state.stage = 'DONE';
  showStatus(state.outcome, false);
  return { outcome: state.outcome, apiKey, accountId: state.accountId, error: state.error };
}
