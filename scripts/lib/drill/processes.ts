import { setTimeout as sleep } from 'node:timers/promises';
import type { Clients } from '../../../src/client/index.js';
import { walletSrn } from '../../../src/provider/srn.js';
import { accountWithProfile, type SandboxAccess } from '../../fixtures/account.js';
import type { DrillRecord, ProcessRun } from './record.js';

// The drill's KYC and checkout runs, answered as the end user and the provider's reviewer would:
// a KYC whose SSN the reviewer sends back, resubmitted and approved; a checkout into one of the
// drill's wallets, paid on the hosted page. Each is recorded, and done once its result came.

export function drillProcesses(clients: Clients, sandbox: SandboxAccess, record: DrillRecord) {
  const run = async (name: string, body: () => Promise<string>): Promise<void> => {
    const entry: ProcessRun = { name, done: false };
    record.processes.push(entry);
    try {
      entry.outcome = await body();
      entry.done = true;
    } catch (err) {
      entry.outcome = `failed: ${(err as Error).message.split('\n')[0]}`;
    }
  };
  return {
    /** A KYC account made before the faults are on: the drill's own provider calls are not retried. */
    kycAccount: () => accountWithProfile(sandbox, { reject: { individualSsn: 'ssn.invalid' } }),

    kyc: (accountId: string) =>
      run(`kyc ${accountId}`, async () => {
        await clients.kyc.start(accountId);
        // Asked again while no worker answers (the chaos command may have killed it).
        const asked = () =>
          clients.kyc
            .state(accountId)
            .then((s) => s.fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting))
            .catch(() => false);
        while (!(await asked())) await sleep(500);
        await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
        await sandbox.op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
        return (await clients.kyc.result(accountId)).outcome;
      }),

    checkout: (orderRef: string, walletId: string) =>
      run(`checkout ${orderRef}`, async () => {
        const page = await clients.checkout.startAndGetPage({
          orderRef,
          sourceAmount: '25',
          sourceCurrency: 'USD',
          destCurrency: 'USD',
          dest: walletSrn(walletId),
        });
        await sandbox.op('POST', `/sandbox/reservations/${page.reservation}/complete`);
        return (await clients.checkout.result(orderRef)).outcome;
      }),
  };
}
