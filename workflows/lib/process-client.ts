import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type WorkflowStartOptions,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import {
  ApplicationFailure,
  type QueryDefinition,
  type UpdateDefinition,
  type WithWorkflowArgs,
  type Workflow,
} from '@temporalio/common';
import type { z } from 'zod';
import type { ClaimRef } from '../../src/claims/ref.js';
import type { ClaimStore } from '../../src/claims/store.js';
import {
  CLAIM_STORE_FAILED,
  type TimingInput,
  type ClaimStoreFailedDetails,
  type FieldFailureDetails,
  INPUT_REJECTED,
  NOT_DELIVERED,
  PROVIDER_REFUSED,
  type ProviderRefusedDetails,
} from './messages.js';
import {
  AlreadyFinishedError,
  ClaimStoreError,
  InputRejectedError,
  NotDeliveredError,
  ProcessNotFoundError,
  ProviderRefusedError,
  rejectInput,
} from './client-errors.js';

// What every process client does: start or attach by business key, updates, state, result; named errors.

/** What a process's update failure carries beside its message (workflows/lib/refusal.ts): one of these. */
type UpdateFailureDetails = Partial<FieldFailureDetails & ProviderRefusedDetails & ClaimStoreFailedDetails>;

export interface ProcessClientOptions {
  taskQueue: string;
}

/** What a process's client is generic over: its workflow type, the workflow id of a business key, its state query. */
export interface ProcessContract<State> {
  workflowType: string;
  workflowId(key: string): string;
  stateQuery: QueryDefinition<State, []>;
}

export type ReusePolicy = 'ALLOW_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY' | 'REJECT_DUPLICATE';

/** A client that keeps what it hands in (files, values) in the claim store. */
export interface WithClaims {
  claims: ClaimStore;
}

/** A client whose processes take the configured timings. */
export interface WithTiming {
  timing?: TimingInput;
}

/** Stands in for a claim reference while a client checks input before storing anything. */
export const claimPlaceholder = (size: number, contentType: string) => ({
  ref: 'local:check',
  sha256: '0'.repeat(64),
  size,
  contentType,
});

export abstract class ProcessClient<State, Result, Options extends object = object> {
  constructor(
    protected readonly client: Client,
    protected readonly opts: ProcessClientOptions & Options,
  ) {}

  protected abstract readonly contract: ProcessContract<State>;

  /** The process's state now, by its business key. */
  async state(key: string): Promise<State> {
    const workflowId = this.contract.workflowId(key);
    try {
      return await this.client.workflow.getHandle(workflowId).query(this.contract.stateQuery);
    } catch (err) {
      throw await this.explain(workflowId, err);
    }
  }

  /** Awaits the process's result, by its business key. */
  async result(key: string): Promise<Result> {
    const workflowId = this.contract.workflowId(key);
    try {
      return (await this.client.workflow.getHandle(workflowId).result()) as Result;
    } catch (err) {
      throw await this.explain(workflowId, err);
    }
  }

  /** Parses with zod on the caller's side too: bad input fails before anything is sent. */
  protected check<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw rejectInput(parsed.error.issues);
    return parsed.data;
  }

  /**
   * Starts the process, or attaches to the one running under this business key; answers its
   * workflow id. A finished one the reuse policy keeps closed is AlreadyFinishedError, unless
   * `attachToFinished` (its result answers every later start). `W`: the workflow's signature.
   */
  protected async startOrAttach<W extends Workflow>(
    key: string,
    args: Parameters<W>,
    start: { reuse: ReusePolicy; attachToFinished?: boolean },
  ): Promise<string> {
    const { reuse, attachToFinished = false } = start;
    const workflowId = this.contract.workflowId(key);
    // The SDK types `args` by a conditional on W that the compiler cannot resolve for a generic W;
    // for any one signature it is Parameters<W>, which is what the callers' arguments are checked as.
    const withArgs = { args } as WithWorkflowArgs<W, object>;
    const options: WorkflowStartOptions<W> = {
      workflowId,
      taskQueue: this.opts.taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: reuse,
      ...withArgs,
    };
    try {
      await this.client.workflow.start<W>(this.contract.workflowType, options);
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      const handle = this.client.workflow.getHandle<W>(workflowId);
      if (!attachToFinished && (await handle.describe()).status.name !== 'RUNNING')
        throw new AlreadyFinishedError(workflowId);
    }
    return workflowId;
  }

  /**
   * Sends input through an update. `claims`: what the client stored for it. An update the process
   * answered with a failure (refused, not delivered), or that found no running process, will never
   * send them: they are deleted at once, not kept until the retention sweep. Any other failure (no
   * answer in time) keeps them: the update may still be under way.
   */
  protected async update<Ret, Arg>(
    workflowId: string,
    def: UpdateDefinition<Ret, [Arg]>,
    arg: Arg,
    claims?: { store: ClaimStore; refs: ClaimRef[] },
  ): Promise<Ret> {
    try {
      return await this.client.workflow.getHandle(workflowId).executeUpdate(def, { args: [arg] });
    } catch (err) {
      const explained = await this.explain(workflowId, err);
      const refused =
        err instanceof WorkflowUpdateFailedError ||
        explained instanceof AlreadyFinishedError ||
        explained instanceof ProcessNotFoundError;
      // The refusal is what the caller needs; a claim the store fails to delete now is swept later.
      if (claims && refused) await claims.store.delete(claims.refs).catch(() => undefined);
      throw explained;
    }
  }

  /** Turns SDK errors into the client's named ones. */
  private async explain(workflowId: string, err: unknown): Promise<unknown> {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
      const { type, message, details } = err.cause;
      const info = (details?.[0] ?? {}) as UpdateFailureDetails;
      const field = info.field ?? 'input';
      const detail = message.replace(new RegExp(`^${field}: `), '');
      if (type === INPUT_REJECTED) return new InputRejectedError(field, detail);
      if (type === NOT_DELIVERED) return new NotDeliveredError(field, detail);
      if (type === PROVIDER_REFUSED)
        return new ProviderRefusedError(field, detail, {
          type: info.type ?? 'Error',
          errorCode: info.errorCode ?? null,
          status: info.status ?? null,
        });
      if (type === CLAIM_STORE_FAILED) return new ClaimStoreError(field, detail, info.reason ?? 'integrity');
    }
    const notFound =
      err instanceof WorkflowNotFoundError ||
      (err as { code?: number })?.code === 5 ||
      /not found|already completed/i.test((err as Error)?.message ?? '');
    if (!notFound) return err;
    try {
      const description = await this.client.workflow.getHandle(workflowId).describe();
      return description.status.name === 'RUNNING' ? err : new AlreadyFinishedError(workflowId);
    } catch (describeErr) {
      // Only a process that does not exist is "not found"; any other trouble is reported as it is.
      return describeErr instanceof WorkflowNotFoundError ? new ProcessNotFoundError(workflowId) : err;
    }
  }
}
