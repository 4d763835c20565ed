import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

// Certificates for a frontend with mTLS, made with openssl: a CA, the server's certificate for
// localhost and 127.0.0.1 (or the names given), and client certificates signed by the same CA (the
// server's own system worker presents one too when client authentication is required).

/** Files of a frontend with mTLS (made by makeCertificates). */
export interface FrontendTls {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** The system worker's client certificate. */
  clientCert: string;
  clientKey: string;
  serverName: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

/** The certificates' lifetime in days: enough for a test run. */
const TEST_RUN_DAYS = 2;
/** A new RSA key in `<name>.key` and the request (or certificate) of `subject` for it. */
function newKey(name: string, subject: string): string[] {
  return ['-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-subj', subject];
}

function signed(dir: string, name: string, subject: string, ext: string, days: number): { cert: string; key: string } {
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(['req', ...newKey(name, subject), '-out', `${name}.csr`], dir);
  const byCa = ['-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'];
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      ...byCa,
      '-days',
      String(days),
      '-sha256',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    ],
    dir,
  );
  return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
}

/**
 * The CA and certificates in `dir`. The server's certificate names `names` (host names and IP
 * addresses; the first is its common name and the clients' server name), valid `days`.
 */
export function makeCertificates(
  dir: string,
  { names = ['localhost', '127.0.0.1'], days = TEST_RUN_DAYS }: { names?: string[]; days?: number } = {},
): FrontendTls & { workerCert: string; workerKey: string } {
  mkdirSync(dir, { recursive: true });
  openssl(['req', '-x509', ...newKey('ca', '/CN=payflows test CA'), '-days', String(days), '-out', 'ca.pem'], dir);
  const altNames = names.map((n) => (isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  const server = signed(
    dir,
    'server',
    `/CN=${names[0]}`,
    `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\n`,
    days,
  );
  const system = signed(dir, 'system-worker', '/CN=temporal-system-worker', 'extendedKeyUsage=clientAuth\n', days);
  const worker = signed(dir, 'payflows-worker', '/CN=payflows-worker', 'extendedKeyUsage=clientAuth\n', days);
  return {
    caCert: join(dir, 'ca.pem'),
    serverCert: server.cert,
    serverKey: server.key,
    clientCert: system.cert,
    clientKey: system.key,
    serverName: names[0]!,
    workerCert: worker.cert,
    workerKey: worker.key,
  };
}

/** The TEMPORAL_TLS_* variables (Temporal's environment configuration) of a client holding `cert`. */
export function clientTlsEnv(tls: FrontendTls, cert: string, key: string): Record<string, string> {
  return {
    TEMPORAL_TLS_CLIENT_CERT_PATH: cert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: key,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: tls.caCert,
    TEMPORAL_TLS_SERVER_NAME: tls.serverName,
  };
}
