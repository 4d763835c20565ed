import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

// Workflow modules the SDK evaluates once, in the V8 context every cached workflow shares (bundle
// option `preloadModules`). It deep-freezes their exports and shares their module-level variables,
// so only modules safe to share belong here, with their imports: no module-level `let`, cache or
// counter, no workflow API called at load, no export a caller writes to. One exception by design:
// workflows/wallet/settled-records.ts counts records in a WeakMap keyed by each run's own table.
// Workflow files, workflows/lib/process.ts and the interceptors stay out; so would @opentelemetry/*
// (its global tracer provider is a singleton that a frozen copy refuses: preload-modules.test.ts).

const ext = extname(fileURLToPath(import.meta.url));
/** A module's file: .ts from source, .js once compiled (dist/, the package), the paths a backend's own bundle names. */
export const modulePath = (module: string) => fileURLToPath(new URL(`../${module}${ext}`, import.meta.url));

export const workflowPreloadModules: readonly string[] = [
  // Exact money and the provider's shapes: pure functions and constants.
  'src/decimal',
  'src/provider/ids',
  'src/provider/srn',
  'src/provider/limits',
  'src/provider/documents',
  'src/provider/reviewer-notes',
  'src/provider/transaction-observation',
  'src/claims/ref-shape',
  'src/claims/failures',
  // Constants read, never written: search attribute keys, activity presets, the patches' ids.
  'src/temporal/search-attributes',
  'workflows/lib/activity-options',
  'workflows/patch-ids',
  // Decisions: functions of their arguments, returning new values.
  'workflows/wallet/ledger',
  'workflows/wallet/settled-records',
  'workflows/wallet/carried-ledger',
  'workflows/wallet/legacy-carried-ledger',
  'workflows/wallet/legacy-float-ledger',
  'workflows/wallet/drift',
  'workflows/wallet/shown-attributes',
  'workflows/lib/amounts-view',
  'workflows/lib/poll-schedule',
  'workflows/lib/refusal',
  'workflows/ach-followup/review',
  'workflows/kyc/reasons',
  'workflows/lib/sha256',
  'workflows/wallet/poll-answer',
  'workflows/lib/idempotency',
  // The workflows' trace context and span shape (the interceptors that use it stay per workflow),
  // and the one storage of the active context, which must be shared (its header says why).
  'workflows/lib/trace-context',
  'workflows/lib/trace-scope',
  // Input checks, the processes' contracts and the messages' definitions (signal, query and update names).
  'workflows/lib/input-check',
  'workflows/lib/shared-checks',
  'workflows/lib/contract',
  'workflows/lib/messages',
  ...['ach-followup', 'checkout', 'kyc', 'onboarding', 'provisioning', 'wallet'].flatMap((processName) =>
    ['checks', 'contract', 'messages'].map((part) => `workflows/${processName}/${part}`),
  ),
].map(modulePath);
