import { WebSocket } from 'undici';
import { type InspectorSession, type ThreadHeap, threadHeap } from '../../bench/thread-heap.js';

// A worker process's heap after full GCs of all its threads (bench/thread-heap.ts), read from the
// test through the process's inspector: the process runs with `--inspect=127.0.0.1:0`, and
// `inspectorUrl` finds the address it printed.

/** The inspector's WebSocket address from what the process printed at start. */
export function inspectorUrl(output: string): string {
  const found = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  if (!found) throw new Error(`inspectorUrl: no "Debugger listening on ws://…" line; run the process with --inspect`);
  return found[1]!;
}

export type ThreadMemory = ThreadHeap & { close(): void };

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

export async function connectThreadMemory(url: string): Promise<ThreadMemory> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`connectThreadMemory: cannot connect to ${url}`)), {
      once: true,
    });
  });
  let nextId = 1;
  const waiting = new Map<number, (m: Message) => void>();
  const listeners = new Map<string, Array<(params: Record<string, unknown>) => void>>();
  ws.addEventListener('message', (event) => {
    const m = JSON.parse(String(event.data)) as Message;
    if (m.method) for (const listener of listeners.get(m.method) ?? []) listener(m.params ?? {});
    else if (m.id !== undefined) {
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    }
  });
  const session: InspectorSession = {
    post: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, (m) =>
          m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result),
        );
        ws.send(JSON.stringify({ id, method, params }));
      }),
    on: (event, listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
  };
  return Object.assign(await threadHeap(session), { close: () => ws.close() });
}
