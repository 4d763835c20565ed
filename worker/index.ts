// `payflows/worker`: a worker of your own — createWorker with this deployment's configuration,
// the activities (to compose with yours), and where the prebuilt workflow bundle is (a bundle of
// your own: bundleWorkflowCode with workflowInterceptorModules and preloadModules: workflowPreloadModules).
export {
  createWorker,
  type CreateWorkerOptions,
  prebuiltUntracedWorkflowBundle,
  prebuiltWorkflowBundle,
  untracedWorkflowInterceptorModules,
  workerSettings,
  workflowInterceptorModules,
  workflowsPath,
} from './create-worker.js';
export { workflowPreloadModules } from './preload-modules.js';
export { startWorkerHealth } from './health.js';
export { createAccountActivities, type AccountActivities } from '../activities/accounts.js';
export {
  createNotifyActivities,
  logNotifier,
  type Notifier,
  type NotifyActivities,
  type Reminder,
} from '../activities/notify.js';
export { createOrderActivities, type OrderActivities } from '../activities/orders.js';
export { createPaymentMethodActivities, type PaymentMethodActivities } from '../activities/payment-methods.js';
export { createSessionActivities, type SessionActivities } from '../activities/sessions.js';
export { createUserActivities, type UserActivities } from '../activities/users.js';
export { createWalletActivities, type WalletActivities } from '../activities/wallets.js';
export { providerFromConfig } from '../src/provider/from-config.js';
export { loadConfig, type Config, ConfigError } from '../src/config.js';
export { startupConfig, requireSettings, missingSettings } from '../src/required-settings.js';
