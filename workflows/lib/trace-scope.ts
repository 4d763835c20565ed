import { AsyncLocalStorage, workflowInfo } from '@temporalio/workflow';
import type { TraceContext } from './trace-context.js';

// The trace context a workflow's code runs in: what an activity it schedules, or a child it
// starts, is traced under. ONE storage for every workflow of a worker (this module is preloaded,
// worker/preload-modules.ts): Node gives every promise a slot per enabled AsyncLocalStorage, so one
// per workflow would make every promise cost in proportion to the workflows cached. A store
// belongs to the promises created inside `run` and is tagged with its run, so that one left behind
// is never another's. Not exported, so that the SDK's freezing of preloaded exports leaves it alone.

const storage = new AsyncLocalStorage<{ ctx: TraceContext; runId: string }>();

/** The context the calling workflow code runs in, if any. */
export function activeTrace(): TraceContext | undefined {
  const store = storage.getStore();
  return store && store.runId === workflowInfo().runId ? store.ctx : undefined;
}

/** Runs `fn` in `ctx`: what it starts, now or after its awaits, sees `ctx` as active. */
export function withTrace<T>(ctx: TraceContext, fn: () => T): T {
  return storage.run({ ctx, runId: workflowInfo().runId }, fn);
}
