// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

export const USER_REF_MESSAGE = 'userRef must be 1 to 100 letters, digits, _ . or -';

export const onboardingWorkflowId = (ref: string) => `onboarding:${ref}`;
