// The contract of this process that its workflow, its checks, its zod schema and its client share:
// workflow ids and the constants its messages are checked against. No zod, nothing that runs.

export const provisioningWorkflowId = (clientRef: string) => `provision:${clientRef}`;

export const CLIENT_REF_MESSAGE = 'clientRef is 1 to 100 letters, digits, dot, dash or underscore';

export const DEFAULT_ACTIVITY_TIMEOUT_MS = 60_000;
