// The workflow's now. Inside a workflow Temporal sets Date.now to the start of the current
// workflow task, the same on replay: deterministic, unlike the wall clock the lint rule guards
// against. The one place workflow code reads it; for bounds on times the provider reports.

// eslint-disable-next-line no-restricted-properties -- the workflow task's time, deterministic (see above)
export const workflowNow = (): number => Date.now();
