// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

export const provisioningWorkflowId = (clientRef: string) => `provision:${clientRef}`;

export const CLIENT_REF_MESSAGE = 'clientRef is 1 to 100 letters, digits, dot, dash or underscore';

export const DEFAULT_ACTIVITY_TIMEOUT_MS = 60_000;
