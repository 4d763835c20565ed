import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { decimal } from '../../../src/decimal.js';
import { walletsTouched } from '../../../src/ingress/callback.js';
import type { Delivery } from '../../../src/sandbox/callbacks.js';
import type { OperatorCall, operatorCalls } from '../../fixtures/operator.js';
import type { DrillRecord } from './record.js';

// The drill's traffic through the sandbox's operator routes: deposits (some pending, confirmed
// later), interest payouts, transfers between the drill's wallets and reversals, while the
// sandbox fails a share of provider calls, drops a callback now and then and repeats others; and
// the chaos command, every so often.

type Operator = ReturnType<typeof operatorCalls>['operator'];
type Moved = { transaction: { id: string; status: string; source: string; dest: string }; delivery?: Delivery };

/** How the drill makes the outside world worse. */
export const FAULTS = {
  /** The share of provider calls that fail (transient errors, retried by the processes). */
  providerErrorRate: 0.1,
  /** Every this many moves, the next callback is dropped. */
  dropEvery: 7,
  /** Callbacks are sent twice during every other window of this length. */
  repeatWindowMs: 15_000,
} as const;

/** Moves a second: enough to keep every wallet busy, few enough for a laptop. */
const MOVES_PER_SECOND = 3;

/** A random whole number below `n`. */
const below = (n: number) => Math.floor(Math.random() * n);
/** A small BTC amount, exact: 1 to 99,999 satoshis. */
const satoshis = () => decimal(`${1 + below(99_999)}e-8`);

/** The fault knobs on (or off again: `on: false`). */
export async function setFaults(op: OperatorCall, { on }: { on: boolean }): Promise<void> {
  if (on)
    await op('PUT', '/sandbox/knobs/faults', { route: '*', error: 'transient', errorRate: FAULTS.providerErrorRate });
  else await op('DELETE', '/sandbox/knobs/faults');
  await op('PUT', '/sandbox/knobs/callbacks', { drop: 0, repeat: 0 });
}

/** Moves money among `walletIds` until `until` (epoch ms). */
export async function traffic(operator: Operator, walletIds: string[], record: DrillRecord, until: number) {
  const pending: string[] = [];
  const confirmed: string[] = [];
  const pick = <T>(list: T[]) => list[below(list.length)]!;
  const call = async (path: string, body?: unknown): Promise<boolean> => {
    const sentAt = Date.now();
    const { status, json } = await operator<Moved>('POST', path, body);
    // A transfer beyond what its wallet holds is refused whole: nothing moved, nothing to count.
    if (status === 400) return false;
    if (status !== 200) throw new Error(`POST ${path} answered ${status}: ${JSON.stringify(json)}`);
    record.expect(walletsTouched(json.transaction), json.transaction, sentAt, json.delivery);
    if (json.transaction.status === 'PENDING') pending.push(json.transaction.id);
    if (json.transaction.status === 'CONFIRMED' && json.transaction.source.includes(':EXTERNAL'))
      confirmed.push(json.transaction.id);
    return true;
  };
  const moves: Array<() => Promise<boolean>> = [
    () => call(`/sandbox/wallets/${pick(walletIds)}/deposits`, { currency: 'BTC', amount: satoshis() }),
    () =>
      call(`/sandbox/wallets/${pick(walletIds)}/deposits`, { currency: 'BTC', amount: satoshis(), confirmed: true }),
    async () =>
      pending.length > 0 && call(`/sandbox/transactions/${pending.splice(below(pending.length), 1)[0]}/confirm`),
    () =>
      call(`/sandbox/wallets/${pick(walletIds)}/interest-payouts`, {
        currency: 'USD',
        amount: decimal(`${1 + below(99)}e-2`),
      }),
    async () => {
      const [from, to] = [pick(walletIds), pick(walletIds)];
      return from !== to && call(`/sandbox/wallets/${from}/transfers`, { to, currency: 'BTC', amount: satoshis() });
    },
    async () =>
      confirmed.length > 0 && call(`/sandbox/transactions/${confirmed.splice(below(confirmed.length), 1)[0]}/reverse`),
  ];
  let repeating = false;
  for (let n = 1; Date.now() < until; n++) {
    const window = Math.floor((Date.now() - record.startedAt) / FAULTS.repeatWindowMs) % 2 === 1;
    if (window !== repeating) {
      repeating = window;
      await operator('PUT', '/sandbox/knobs/callbacks', { repeat: repeating ? 1 : 0 });
    }
    if (n % FAULTS.dropEvery === 0) await operator('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    while (!(await pick(moves)())) {
      // That move had nothing to act on: another.
    }
    await sleep(1000 / MOVES_PER_SECOND);
  }
  // What is still pending is confirmed, so that the wallets settle on what the provider holds.
  for (const id of pending) await call(`/sandbox/transactions/${id}/confirm`);
}

/** Runs `command` in a shell every `everyMs` until `until`; each run is marked, with whether it exited 0. */
export async function chaos(
  command: string,
  everyMs: number,
  record: DrillRecord,
  until: number,
  say: (line: string) => void,
) {
  for (;;) {
    await sleep(Math.max(0, Math.min(everyMs, until - Date.now())));
    if (Date.now() >= until) return;
    const at = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', () => resolve(null));
      child.on('exit', (c) => {
        if (c !== 0) say(`chaos: \`${command}\` exited ${c}: ${err.trim().split('\n').at(-1) ?? ''}`);
        resolve(c);
      });
    });
    record.marks.push({ at, kind: 'chaos', ok: code === 0 });
  }
}
