import { proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SessionActivities } from '../../activities/sessions.js';
import { AccountId } from '../../src/temporal/search-attributes.js';
import { doneWithClaims } from '../lib/claims.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { PROVIDER_WRITE } from '../lib/activity-options.js';
import { enterStage, showStatus, validateStart } from '../lib/process.js';
import { providerRefusal } from '../lib/refusal.js';
import { isSecondAccountCreation } from './second-account.js';
import { checkProvisioningInput } from './checks.js';
import {
  type ProvisioningInput,
  type ProvisioningResult,
  type ProvisioningState,
  provisioningStateQuery,
} from './messages.js';

// Account provisioning for a client-held token (docs/provider-contract.md §5.3): registers the client's secret, then
// creates the token's one account. A retried creation (after a crash, say) carries the same
// idempotency key and so finds the same account; a token that already made an account meets the
// error of docs/provider-contract.md §7.1, which ends the process as ALREADY_BOUND rather than as a failure.

export async function provisioningWorkflow(raw: ProvisioningInput): Promise<ProvisioningResult> {
  const input = validateStart(checkProvisioningInput, raw);
  // Both calls create (credentials, then the account): PROVIDER_WRITE, with the attempt's time limit from the input.
  const provider = proxyActivities<SessionActivities>({
    ...PROVIDER_WRITE,
    startToCloseTimeout: input.activityTimeoutMs,
  });
  const state: ProvisioningState = {
    clientRef: input.clientRef,
    stage: 'REGISTERING',
    apiKey: null,
    accountId: null,
    outcome: null,
    error: null,
  };
  setHandler(provisioningStateQuery, () => state);

  showStatus('REGISTERING', { waitingOnEndUser: false });
  const { apiKey } = await provider.registerClientToken({ secret: input.secret });
  state.apiKey = apiKey;

  enterStage(state, 'CREATING_ACCOUNT', { waitingOnEndUser: false });
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
    const refusal = providerRefusal(err);
    if (refusal === null || !isSecondAccountCreation(refusal)) throw err;
    state.outcome = 'ALREADY_BOUND';
    state.error = `this token is already bound to an account (spec 7.1): ${refusal.message}`;
  }
  // The client keeps its secret; this copy in the claim store has served.
  await doneWithClaims([input.secret]);
  state.stage = 'DONE';
  showStatus(state.outcome, { waitingOnEndUser: false });
  return { outcome: state.outcome, apiKey, accountId: state.accountId, error: state.error };
}
