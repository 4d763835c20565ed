import { setTimeout as sleep } from 'node:timers/promises';
import { isGrpcServiceError, ServiceError } from '@temporalio/client';
import { request } from 'undici';
import type { Clients } from '../../../src/client/index.js';
import { SANDBOX_CREDENTIALS } from '../../../src/config.js';
import { walletSrn } from '../../../src/provider/srn.js';
import { accountWithProfile, type SandboxAccess } from '../../fixtures/account.js';
import type { DrillRecord, ProcessRun } from './record.js';

// The drill's KYC, checkout and onboarding runs, answered as the end user and the provider's
// reviewer would: a KYC whose SSN the reviewer sends back, resubmitted and approved; a checkout
// into one of the drill's wallets, paid on the hosted page; an onboarding for higher limits whose
// user submits through the link and is approved. Each is recorded, and done once its result came.

/** The kinds of run the drill can start. */
export type ProcessKind = 'kyc' | 'checkout' | 'onboarding';

/** What each kind ends with when the drill answers it as above. */
export const EXPECTED_OUTCOME: Record<ProcessKind, string> = {
  kyc: 'APPROVED',
  checkout: 'COMPLETED',
  onboarding: 'APPROVED',
};

/** Resolves once `ask` answers true; asked again while no worker or server answers (a fault may be on). */
async function until(ask: () => Promise<boolean>): Promise<void> {
  while (!(await ask().catch(() => false))) await sleep(500);
}

/** gRPC's DEADLINE_EXCEEDED and UNAVAILABLE: the call got no answer, which says nothing of its outcome. */
const NO_ANSWER = new Set([4, 14]);

function noAnswer(err: unknown): boolean {
  const grpc = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(grpc) && NO_ANSWER.has(grpc.code);
}

/**
 * Calls `step` again, as a backend would, while it fails without an answer (a Temporal service
 * lost, its work not yet moved to another process). A step sent again must be one whose repeat
 * does nothing more: a start attaches, a result or a page is asked for again.
 */
async function again<T>(step: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await step();
    } catch (err) {
      if (!noAnswer(err)) throw err;
      await sleep(1_000);
    }
  }
}

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
        await again(() => clients.kyc.start(accountId));
        const awaiting = () =>
          clients.kyc.state(accountId).then((s) => s.fields.some((f) => f.fieldId === 'individualSsn' && f.awaiting));
        await until(awaiting);
        // A submission without an answer may still have arrived: sent again only while the field still waits.
        await again(async () => {
          if (await awaiting()) await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
        });
        await sandbox.op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
        return (await again(() => clients.kyc.result(accountId))).outcome;
      }),

    checkout: (orderRef: string, walletId: string) =>
      run(`checkout ${orderRef}`, async () => {
        const page = await again(() =>
          clients.checkout.startAndGetPage({
            orderRef,
            sourceAmount: '25',
            sourceCurrency: 'USD',
            destCurrency: 'USD',
            dest: walletSrn(walletId),
          }),
        );
        await sandbox.op('POST', `/sandbox/reservations/${page.reservation}/complete`);
        return (await again(() => clients.checkout.result(orderRef))).outcome;
      }),

    onboarding: (userRef: string) =>
      run(`onboarding ${userRef}`, async () => {
        // Limits are raised only where the operator enabled the scope (docs/provider-contract.md §8 rule 2).
        await sandbox.op('POST', `/sandbox/accounts/${SANDBOX_CREDENTIALS.accountId}/features`, { debitCardL2: true });
        await again(() => clients.onboarding.start({ userRef, country: 'US' }));
        let userId: string | undefined;
        await until(async () => Boolean((userId = (await clients.onboarding.state(userRef)).userId ?? undefined)));
        // The end user opens a fresh link and submits; the provider's reviewer approves.
        const page = await request(await again(() => clients.onboarding.onboardingLink(userRef)), { method: 'POST' });
        await page.body.dump();
        if (page.statusCode !== 200) throw new Error(`the onboarding page of ${userRef} answered ${page.statusCode}`);
        await sandbox.op('POST', `/sandbox/users/${userId}/approve`);
        return (await again(() => clients.onboarding.result(userRef))).outcome;
      }),
  };
}
