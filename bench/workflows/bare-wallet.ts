import {
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';

// The wallet flow's floor: the same process in raw workflow code, none of the product's own. One
// workflow, opened by an update-with-start whose handler runs one local activity (as the provider's
// create; recorded in the workflow's own task, the fewest round trips a create can take)
// and answers with its result; two signals (as the deposit's two callbacks); a query that shows
// them. No child, no ledger, no product code: the fewest Temporal operations any implementation of
// this flow needs, on the same worker as the product (its interceptors and data converter, which
// the minimal workflow pays too).
//
// `edges` 'contract' adds what the provider's contract makes every implementation do besides
// (bench/contract-edges.ts): the activity creates the wallet at the sandbox by a signed request, and
// the two signals come from the sandbox's signed callbacks through a bare receiver. 'none' echoes
// instead, and the bench sends the two signals itself.

export const bareOpen = defineUpdate<string>('bareOpen');
export const bareTransaction = defineSignal<[string]>('bareTransaction');
export const bareSeen = defineQuery<{ opened: string | undefined; transactions: string[] }>('bareSeen');

interface BareActivities {
  echo(value: string): Promise<string>;
  /** The wallet's id at the provider, created with callbacks to this workflow. */
  createWalletBare(name: string): Promise<string>;
}

// A few attempts, not the default's forever: a create the sandbox keeps refusing fails the bench.
const { echo, createWalletBare } = proxyLocalActivities<BareActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

export async function bareWalletWorkflow(name: string, edges: 'none' | 'contract' = 'none'): Promise<void> {
  let opened: string | undefined;
  const transactions: string[] = [];
  setHandler(bareOpen, async () => (opened = await (edges === 'contract' ? createWalletBare(name) : echo(name))));
  setHandler(bareTransaction, (tx) => void transactions.push(tx));
  setHandler(bareSeen, () => ({ opened, transactions }));
  // Open until the bench terminates it, as a wallet's follower is.
  await condition(() => false);
}
