import { AchFollowupClient } from '../../../workflows/ach-followup/client.js';
import { achPaymentMethod, PNG_DOCUMENT } from '../../fixtures/account.js';
import { until } from '../child.js';
import { clients, expect, op, quickClient, sandbox, save, type Stories } from './context.js';

export const stories: Stories = {
  // The form awaited, submitted, approved.
  async 'ach-followup'() {
    const { accountId, paymentMethodId } = await achPaymentMethod(sandbox);
    await clients.achFollowup.start({ paymentMethodId, accountId });
    await until(
      'the form to be awaited',
      () => clients.achFollowup.state(paymentMethodId),
      (state) => state.stage === 'WAITING_FOR_FORM',
    );
    await clients.achFollowup.submitForm(paymentMethodId, PNG_DOCUMENT);
    await op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
    await clients.achFollowup.result(paymentMethodId);
    save('ach-followup', 'ach-followup', `ach-followup:${paymentMethodId}`);
  },

  // The form is awaited through two quiet times (a reminder each), then handed in and approved.
  async 'ach-reminders'() {
    const { accountId, paymentMethodId } = await achPaymentMethod(sandbox);
    const ach = quickClient(AchFollowupClient, { reminderAfterMs: 300 });
    await ach.start({ paymentMethodId, accountId });
    await until(
      'two reminders for the form',
      () => ach.state(paymentMethodId),
      (state) => state.reminders >= 2,
    );
    await ach.submitForm(paymentMethodId, PNG_DOCUMENT);
    await op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
    expect('outcome', (await ach.result(paymentMethodId)).outcome, 'APPROVED');
    save('ach-followup', 'ach-reminders', `ach-followup:${paymentMethodId}`);
  },
};
