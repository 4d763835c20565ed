// The contract of this process that its workflow, its checks, its zod schema and its client share:
// workflow ids and the constants its messages are checked against. No zod, nothing that runs.

export const achFollowupWorkflowId = (paymentMethodId: string) => `ach-followup:${paymentMethodId}`;
