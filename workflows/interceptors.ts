import {
  ApplicationFailure,
  ContinueAsNew,
  isCancellation,
  metricMeter,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';

// Workflow interceptors bundled with every process: they count processes started and finished by
// outcome through the workflow's metric meter, which tags each point with the workflow type and
// emits nothing while a run replays. They add no command, so histories replay unchanged.

const OUTCOME = /^[A-Z][A-Z_]{0,39}$/;

/** The outcome label of a run's result: its `outcome` when it is one of the processes' codes. */
export function outcomeOf(result: unknown): string {
  const outcome = (result as { outcome?: unknown } | null | undefined)?.outcome;
  return typeof outcome === 'string' && OUTCOME.test(outcome) ? outcome : 'COMPLETED';
}

export function failureOutcome(err: unknown): string | undefined {
  if (err instanceof ContinueAsNew) return undefined; // the process goes on in a new run
  if (isCancellation(err)) return 'CANCELLED';
  return err instanceof ApplicationFailure && err.type === 'ProviderStalled' ? 'STALLED' : 'FAILED';
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const started = metricMeter.createCounter(
          'payflows_processes_started',
          'processes',
          'Processes started, by workflow type',
        );
        const finished = metricMeter.createCounter(
          'payflows_processes_finished',
          'processes',
          'Processes finished, by workflow type and outcome',
        );
        if (workflowInfo().continuedFromExecutionRunId === undefined) started.add(1);
        try {
          const result = await next(input);
          finished.add(1, { outcome: outcomeOf(result) });
          return result;
        } catch (err) {
          const outcome = failureOutcome(err);
          if (outcome) finished.add(1, { outcome });
          throw err;
        }
      },
    },
  ],
});
