import { request } from 'undici';
import { OnboardingClient } from '../../../workflows/onboarding/client.js';
import { sleep, until } from '../child.js';
import { clients, expect, MASTER, op, quickClient, save, type Stories } from './context.js';

let onboarded: Promise<string> | undefined;

/** The happy onboarding, recorded; the checkout's buyer is its user. Runs once. */
export const onboardedUser = () =>
  (onboarded ??= (async () => {
    await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const userRef = `history-${Date.now()}`;
    await clients.onboarding.start({ userRef, country: 'US' });
    const { userId } = await until(
      'the user',
      () => clients.onboarding.state(userRef),
      (state) => Boolean(state.userId),
    );
    const link = await clients.onboarding.onboardingLink(userRef);
    await (await request(link, { method: 'POST' })).body.dump();
    await op('POST', `/sandbox/users/${userId}/approve`);
    await clients.onboarding.result(userRef);
    save('onboarding', 'onboarding', `onboarding:${userRef}`);
    return userId!;
  })());

export const stories: Stories = {
  // The user created, the link used, the user approved.
  async onboarding() {
    await onboardedUser();
  },

  // Reminders while the user owes the verification; after the link is used the user is under
  // review for several quiet times (no reminder then), and is approved.
  async 'onboarding-reminders'() {
    await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const userRef = `history-reminders-${Date.now()}`;
    const onboarding = quickClient(OnboardingClient, { reminderAfterMs: 300 });
    await onboarding.start({ userRef, country: 'US' });
    await until(
      'two reminders for the verification',
      () => onboarding.state(userRef),
      (state) => state.reminders >= 2,
    );
    await (await request(await onboarding.onboardingLink(userRef), { method: 'POST' })).body.dump();
    const { userId } = await until(
      'the review',
      () => onboarding.state(userRef),
      (state) => state.stage === 'UNDER_REVIEW',
    );
    await sleep(1_200);
    await op('POST', `/sandbox/users/${userId}/approve`);
    expect('outcome', (await onboarding.result(userRef)).outcome, 'APPROVED');
    save('onboarding', 'onboarding-reminders', `onboarding:${userRef}`);
  },
};
