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

/** A port that was free a moment ago. */
export function freePort(host = '127.0.0.1'): Promise<number> {
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
