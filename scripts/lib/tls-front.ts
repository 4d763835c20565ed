import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:tls';

// A TLS front for a plaintext service on loopback: what a deployment's TLS-terminating proxy does
// in front of the codec server. The Web UI passes a signed-in user's access token to an https://
// codec endpoint only, so the cluster's browser reaches the codec server through this.

export interface TlsFront {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` with `cert`/`key` (files) and pipes each connection to 127.0.0.1:`target`. */
export async function startTlsFront({
  port,
  target,
  cert,
  key,
}: {
  port: number;
  target: number;
  cert: string;
  key: string;
}): Promise<TlsFront> {
  const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (socket) => {
    const upstream = connect({ host: '127.0.0.1', port: target });
    socket.pipe(upstream).pipe(socket);
    const end = () => (socket.destroy(), upstream.destroy());
    socket.once('error', end);
    upstream.once('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `https://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
