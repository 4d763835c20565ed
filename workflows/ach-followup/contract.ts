// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

export const achFollowupWorkflowId = (paymentMethodId: string) => `ach-followup:${paymentMethodId}`;
