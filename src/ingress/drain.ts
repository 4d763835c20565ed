import type { Server } from 'node:http';

// The requests a server is answering, counted, so that a stopping ingress exits only once each
// callback in flight has its answer: a server's own 'close' does not wait for them.

export function inFlightRequests(server: Server): { count(): number; settled(): Promise<void> } {
  let count = 0;
  let waiters: Array<() => void> = [];
  server.on('request', (_req, res) => {
    count += 1;
    res.once('close', () => {
      count -= 1;
      if (count === 0) {
        for (const wake of waiters) wake();
        waiters = [];
      }
    });
  });
  return {
    count: () => count,
    settled: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
