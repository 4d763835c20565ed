import { request } from 'undici';
import { stringifyJson } from '../json.js';
import { callbackSignature } from '../provider/signing.js';
import type { Transaction } from '../provider/schemas/transaction.js';

// docs/provider-contract.md §6: a callback goes to the wallet's callbackUrl, signed with X-API-Signature, once. The
// knobs let an operator or a test make the outside world worse: drop or repeat callbacks.

export interface CallbackKnobs {
  /** The next N callbacks are not sent at all. */
  drop: number;
  /** Each callback is sent this many extra times. */
  repeat: number;
}

export interface Delivery {
  transactionId: string;
  status: string;
  url: string;
  /** HTTP status per attempt; "dropped" when the knob swallowed it, "error: …" when unreachable. */
  outcomes: Array<number | string>;
  at: number;
}

export class CallbackSender {
  readonly knobs: CallbackKnobs = { drop: 0, repeat: 0 };
  readonly log: Delivery[] = [];

  constructor(private readonly timeoutMs = 10_000) {}

  setKnobs(knobs: Partial<CallbackKnobs>): CallbackKnobs {
    Object.assign(this.knobs, knobs);
    return { ...this.knobs };
  }

  async send(url: string | null, secret: string, tx: Transaction): Promise<Delivery | undefined> {
    if (!url) return undefined;
    const delivery: Delivery = { transactionId: tx.id, status: tx.status, url, outcomes: [], at: Date.now() };
    this.log.push(delivery);
    if (this.log.length > 500) this.log.shift();
    if (this.knobs.drop > 0) {
      this.knobs.drop -= 1;
      delivery.outcomes.push('dropped');
      return delivery;
    }
    // Amounts are JSON numbers with every digit of the decimal the sandbox keeps (src/json.ts).
    const body = stringifyJson(tx);
    const signature = callbackSignature(secret, body);
    for (let copy = 0; copy <= this.knobs.repeat; copy++) {
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-signature': signature },
          body,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        });
        await res.body.dump();
        delivery.outcomes.push(res.statusCode);
      } catch (err) {
        // A single attempt, as the real service makes: a failure is logged, never retried.
        delivery.outcomes.push(`error: ${(err as Error).message}`);
      }
    }
    return delivery;
  }
}
