import { condition, defineQuery, defineSignal, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';

// The wallet flow's floor: the same process in raw workflow code, none of the product's own. One
// workflow, opened by an update-with-start whose handler runs one activity (as the provider's create)
// and answers with its result; two signals (as the deposit's two callbacks); a query that shows
// them. No child, no ingress, no provider, no ledger: the fewest Temporal operations any
// implementation of this flow needs, on the same worker as the product (its interceptors and data
// converter, which the minimal workflow pays too).

export const bareOpen = defineUpdate<string>('bareOpen');
export const bareTransaction = defineSignal<[string]>('bareTransaction');
export const bareSeen = defineQuery<{ opened: string | undefined; transactions: string[] }>('bareSeen');

const { echo } = proxyActivities<{ echo(value: string): Promise<string> }>({ startToCloseTimeout: '1 minute' });

export async function bareWalletWorkflow(name: string): Promise<void> {
  let opened: string | undefined;
  const transactions: string[] = [];
  setHandler(bareOpen, async () => (opened = await echo(name)));
  setHandler(bareTransaction, (tx) => void transactions.push(tx));
  setHandler(bareSeen, () => ({ opened, transactions }));
  // Open until the bench terminates it, as a wallet's follower is.
  await condition(() => false);
}
