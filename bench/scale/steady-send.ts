// The scale run's callbacks at a steady rate: the i-th goes out i / rate seconds after the first,
// whether the ones before have answered or not. A send that fails (the ingress answers 503 when
// Temporal does not take the signal in time) is kept as refused and the others go on: a figure of
// the run, not the end of it.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function sendSteadily<T>(
  count: number,
  perSecond: number,
  send: (i: number) => Promise<T>,
): Promise<{ sent: T[]; refused: string[] }> {
  const refused: string[] = [];
  const pending: Array<Promise<T | typeof REFUSED>> = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    // Caught as it is made: a rejection waiting for Promise.all below would be unhandled meanwhile.
    pending.push(
      send(i).catch((err: unknown) => {
        refused.push(err instanceof Error ? err.message : String(err));
        return REFUSED;
      }),
    );
  }
  const settled = await Promise.all(pending);
  return { sent: settled.filter((s): s is Awaited<T> => s !== REFUSED), refused };
}

const REFUSED = Symbol('refused');
