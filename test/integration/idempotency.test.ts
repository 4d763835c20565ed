import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { createWalletActivities } from '../../activities/wallets.js';
import { KycClient } from '../../workflows/kyc/client.js';
import type { KycState } from '../../workflows/kyc/messages.js';
import { accountWithProfile } from '../../scripts/fixtures/account.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// Idempotency keys that survive odd input and time: a digest of the workflow id and the step
// whatever the names hold, local refusals that end an activity at once, and KYC keys that a
// later round cannot repeat once the earlier round's history is gone.

describe('idempotency keys that survive odd input and time', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  const keysSeen = () => Object.keys(stack.sandbox.ctx.store.state.idempotency).map((k) => k.slice(k.indexOf(' ') + 1));

  it(
    'opens a wallet whose name holds a newline and characters outside Latin-1, once',
    { timeout: 60_000 },
    async () => {
      const name = `é\n✓ ${Date.now()}`;
      const before = new Set(keysSeen());
      const opened = await stack.wallets.open({ name });
      assert.match(opened.walletId, /^WA_/);
      assert.equal(
        stack.sandbox.ctx.store.state.wallets[opened.walletId]!.name,
        name,
        'the provider got the name as given',
      );
      const fresh = keysSeen().filter((k) => !before.has(k));
      assert.equal(fresh.length, 1, 'one creation, one key');
      assert.match(fresh[0]!, /^[0-9a-f]{64}$/, 'the key is a digest: fixed length, plain ASCII');
      assert.ok(!fresh[0]!.includes(name), 'and does not carry the name');
      assert.equal(
        (await stack.wallets.open({ name })).walletId,
        opened.walletId,
        'opening it again finds the same wallet',
      );
    },
  );

  it('an attempt whose recorded key undici refuses fails at once as non-retryable, sending nothing', async () => {
    // What a workflow scheduled before keys were digests still holds in its activity input.
    const { createWallet } = createWalletActivities({
      provider: stack.provider,
      callbackUrl: `${stack.ingressUrl}/callbacks`,
    });
    const walletsBefore = Object.keys(stack.sandbox.ctx.store.state.wallets).length;
    const err = await createWallet({ name: 'é\n✓', idempotencyKey: 'open-wallet:é\n✓/create-wallet' }).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApplicationFailure, String(err));
    assert.equal(err.nonRetryable, true);
    assert.equal(err.type, 'ProviderInputError');
    assert.match(err.message, /POST \/v2\/wallets \(create wallet\) could not be sent/);
    assert.equal(Object.keys(stack.sandbox.ctx.store.state.wallets).length, walletsBefore, 'the provider got nothing');
  });

  it(
    'a KYC round after the previous round has passed retention uses keys the provider has not seen',
    { timeout: 240_000 },
    async () => {
      const kyc = new KycClient(stack.client, {
        taskQueue: stack.taskQueue,
        claims: stack.claims,
        timing: stack.timing,
      });
      // The SSN submitted and under review: each round starts with the reviewer sending it back.
      const accountId = await accountWithProfile(stack, { submit: ['individualSsn'], pending: ['individualSsn'] });
      const ssnField = () =>
        stack.sandbox.ctx.store.state.accounts[accountId]!.account.profileFields.find(
          (f) => f.fieldId === 'individualSsn',
        )!;
      const awaitsSsn = (s: KycState) => s.fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting);
      const round = async (value: string) => {
        await stack.op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/reject`, { note: 'ssn.invalid' });
        await kyc.start(accountId);
        await eventually(async () => assert.ok(awaitsSsn(await kyc.state(accountId)), 'the SSN is awaited'));
        await kyc.submitValue(accountId, 'individualSsn', value);
        assert.equal(ssnField().value, value, 'the provider took the value');
        // Ended by the test: the round is over, whatever the other fields are doing.
        await stack.client.workflow.getHandle(`kyc:${accountId}`).terminate('round over');
      };

      await round('078-05-1120');
      // Retention: the closed round's history is deleted, and with it anything a client could ask it.
      const { runId } = await stack.client.workflow.getHandle(`kyc:${accountId}`).describe();
      await stack.client.workflowService.deleteWorkflowExecution({
        namespace: 'default',
        workflowExecution: { workflowId: `kyc:${accountId}`, runId },
      });
      await eventually(
        async () => assert.rejects(stack.client.workflow.getHandle(`kyc:${accountId}`).describe()),
        90_000,
      );

      const keysBefore = new Set(keysSeen());
      await round('219-09-9999');
      const fresh = keysSeen().filter((k) => !keysBefore.has(k));
      assert.equal(fresh.length, 1, 'the second round sent its value under a key of its own');
    },
  );
});
