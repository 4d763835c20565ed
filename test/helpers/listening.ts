import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

// Where a server of ours listens, seen as someone else on the network would: what the kernel says
// it listens on, and whether a connection from one of this machine's other addresses is taken.

/** This machine's addresses other than loopback: where someone else on the network would connect. */
export const outsideAddresses: string[] = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a && !a.internal && a.family === 'IPv4')
  .map((a) => a!.address);

/** The local addresses listening on `port` (from /proc/net/tcp and tcp6), e.g. 127.0.0.1, 0.0.0.0, ::. */
export function listenAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local?.endsWith(`:${hexPort}`)) continue;
      const hex = local.split(':')[0]!;
      if (hex.length === 8) addresses.push(Buffer.from(hex, 'hex').reverse().join('.'));
      else if (/^0{24}01000000$/.test(hex)) addresses.push('::1');
      else if (/^0{32}$/.test(hex)) addresses.push('::');
      else if (/^0{20}FFFF0000/.test(hex))
        addresses.push(`::ffff:${Buffer.from(hex.slice(24), 'hex').reverse().join('.')}`);
      else addresses.push(hex);
    }
  }
  return addresses;
}

/** Whether a TCP connection to host:port is accepted. */
export function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(3_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}
