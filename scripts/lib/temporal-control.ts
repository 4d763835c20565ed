import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback HTTP endpoint through which the cluster's tests, processes of their own, take a
// Temporal service down and bring it back, or restart PostgreSQL, in the process that started them
// (scripts/test-cluster.ts); test/helpers/cluster.ts is its client. Every call carries the token of
// the cluster's description file, which only its owner reads.
//
//   GET  /temporal               the server's processes, each with its pid (null while down)
//   POST /temporal/<name>/kill   SIGKILL to that process; answers once it has exited
//   POST /temporal/<name>/start  starts it again (same command, environment and ports); answers once it listens
//   POST /postgres/restart       stops PostgreSQL and starts it again on the same data and port

/** What the endpoint drives: the running cluster's own controls. */
export interface TemporalControls {
  services(): Array<{ name: string }>;
  kill(name: string): Promise<void>;
  start(name: string): Promise<void>;
  restartPostgres(): Promise<void>;
}

export interface ControlEndpoint {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** A refusal that names what was wrong; the endpoint answers it with `status`. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of a name that is none of `names`. */
export const unknownService = (name: string, names: string[]) =>
  new ControlError(404, `no Temporal service named ${name}; the services are ${names.join(', ')}`);

export async function serveTemporalControl(controls: TemporalControls): Promise<ControlEndpoint> {
  const token = randomBytes(24).toString('hex');
  const server = createServer((req, res) => void answer(controls, token, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function answer(controls: TemporalControls, token: string, req: IncomingMessage, res: ServerResponse) {
  const send = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  try {
    if (req.headers.authorization !== `Bearer ${token}`)
      throw new ControlError(401, 'the control endpoint wants the token of the cluster description (control.token)');
    const path = new URL(req.url ?? '/', 'http://control').pathname;
    const route = `${req.method} ${path}`;
    if (route === 'GET /temporal') return send(200, controls.services());
    if (route === 'POST /postgres/restart') {
      await controls.restartPostgres();
      return send(200, { restarted: 'postgres' });
    }
    const m = /^POST \/temporal\/([^/]+)\/(kill|start)$/.exec(route);
    if (!m)
      throw new ControlError(
        404,
        `no route ${route}: GET /temporal, POST /temporal/<name>/kill, POST /temporal/<name>/start, POST /postgres/restart`,
      );
    const [, name, action] = m as unknown as [string, string, 'kill' | 'start'];
    const names = controls.services().map((s) => s.name);
    if (!names.includes(name)) throw unknownService(name, names);
    await controls[action](name);
    return send(
      200,
      controls.services().find((s) => s.name === name),
    );
  } catch (err) {
    send(err instanceof ControlError ? err.status : 500, { error: (err as Error).message });
  }
}
