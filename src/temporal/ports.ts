import { createServer } from 'node:net';

/** Resolves when the port can be bound on host, rejects with a message that says what to change. */
export function assertPortFree(port: number, variable: string, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `port ${port} is already in use on ${host}; set ${variable} to a free port (or stop what uses it)`
            : err.message,
        ),
      ),
    );
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}

/**
 * A port that was free a moment ago: the kernel's choice, or under TEST_PORT_RANGE (`low-high`)
 * one from that range (`portIn`). Each test suite sets a range of its own outside the kernel's
 * ephemeral ports (scripts/test.ts, scripts/test-cluster.ts), so that with the suites side by side
 * no port-0 bind or outgoing connection of the other takes a port handed out here but not yet bound.
 */
export async function freePort(host = '127.0.0.1', env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const range = env.TEST_PORT_RANGE;
  if (!range) return kernelPort(host);
  const [low, high] = /^\d+-\d+$/.test(range) ? range.split('-').map(Number) : [];
  if (!low || !high || low < 1024 || high > 65535 || low > high)
    throw new Error(`TEST_PORT_RANGE=${range} is not a port range: set it to low-high, 1024 to 65535`);
  return portIn(low, high, host, `TEST_PORT_RANGE=${range}`);
}

/** The ports this process has handed out from a range: free until their process binds it. */
const given = new Set<number>();

/**
 * A port from `low` to `high` that can be bound now and that this process has not handed out
 * before, picked at random; `range` names the range in the error when none is left.
 */
export async function portIn(low: number, high: number, host = '127.0.0.1', range = `${low}-${high}`): Promise<number> {
  const size = high - low + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = low + ((start + i) % size);
    if (given.has(port) || !(await canBind(port, host))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`freePort: no free port left in ${range}; widen the range`);
}

function kernelPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}
