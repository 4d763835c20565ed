// The contract of this process that its workflow, its checks, its zod schema and its client share:
// workflow ids and the constants its messages are checked against. No zod, nothing that runs.

export const USER_REF_MESSAGE = 'userRef must be 1 to 100 letters, digits, _ . or -';

export const onboardingWorkflowId = (ref: string) => `onboarding:${ref}`;
