import { AsyncLocalStorage, workflowInfo } from '@temporalio/workflow';
import type { TraceContext } from './trace-context.js';

// The trace context a workflow's code runs in: what an activity it schedules, or a child it
// starts, is traced under. ONE storage for every workflow of a worker: this module is preloaded
// (worker/preload-modules.ts), so it is evaluated once in the context the cached workflows share.
// Node gives every promise created anywhere a slot per enabled AsyncLocalStorage, so a storage per
// workflow (as Temporal's own workflow interceptors keep) made every promise of the worker cost in
// proportion to the workflows cached. Sharing is safe: a store belongs to the promises created
// inside `run`, and a workflow's promises never reach another's; a store is also tagged with its
// run, so that one left behind (a deadlocked task interrupted inside `run`) is never another's.
// The storage is not exported, so that the SDK's freezing of a preloaded module's exports leaves
// it alone.

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
