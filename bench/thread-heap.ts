// A process's V8 heap after full GCs of every thread, through its inspector: a worker keeps its
// workflows in the SDK's worker thread, which nothing in the process collects before a reading, so
// that its memory then holds garbage in amounts that vary from one reading to the next. The
// inspector reaches the worker threads from the main thread (the NodeWorker domain), in the process
// itself (bench/memory-worker.ts) or from outside it (test/helpers/thread-memory.ts).

/** An inspector session on a process's main thread: its methods, and its events' parameters. */
export interface InspectorSession {
  post(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: Record<string, unknown>) => void): void;
}

export interface ThreadHeap {
  /** Collects every thread's garbage, then answers the heap in use summed over the threads. */
  collectedHeapBytes(): Promise<number>;
}

export async function threadHeap(session: InspectorSession): Promise<ThreadHeap> {
  const threads = new Set<string>();
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  session.on('NodeWorker.attachedToWorker', (p) => threads.add(String(p.sessionId)));
  session.on('NodeWorker.detachedFromWorker', (p) => threads.delete(String(p.sessionId)));
  session.on('NodeWorker.receivedMessageFromWorker', (p) => {
    const m = JSON.parse(String(p.message)) as { id?: number; result?: unknown; error?: unknown };
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(`a worker thread's inspector: ${JSON.stringify(m.error)}`));
    else w.resolve(m.result);
  });
  /** A method of the main thread, or of the worker thread attached as `thread`. */
  const call = (method: string, thread?: string): Promise<unknown> => {
    if (thread === undefined) return session.post(method);
    const id = nextId++;
    const answered = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    const message = JSON.stringify({ id, method });
    return session.post('NodeWorker.sendMessageToWorker', { sessionId: thread, message }).then(() => answered);
  };
  await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  for (let waited = 0; threads.size === 0 && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (threads.size === 0) throw new Error('threadHeap: no worker thread attached to the inspector');
  return {
    async collectedHeapBytes() {
      const all = [...threads, undefined];
      for (const thread of all) await call('HeapProfiler.collectGarbage', thread);
      let bytes = 0;
      for (const thread of all)
        bytes += ((await call('Runtime.getHeapUsage', thread)) as { usedSize: number }).usedSize;
      return bytes;
    },
  };
}
