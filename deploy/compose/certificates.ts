import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeCertificates } from '../../scripts/lib/tls.js';

// docker-compose.yml's one-shot `certificates` service: the compose stack's CA and the server
// certificate of every https and TLS door in it, made by scripts/lib/tls.ts (openssl, as `npm run
// cluster` makes its own) into the `certificates` volume. A stand-in, as the identity provider is:
// a deployment brings certificates of its own CA. Run again on every `docker compose up`: it keeps
// what is there until the server certificate nears its end or lacks a name, then makes all anew.
//   node --import tsx deploy/compose/certificates.ts /certs

/**
 * Where the server certificate is presented: the load balancer (clients' address, `temporal`) and the
 * frontends behind it (the server's own calls), the identity provider's issuer (`idp.localhost`, the
 * same name for the browser and the containers), and the codec server's TLS front as the browser
 * reaches it (127.0.0.1). The first is the name clients verify (TEMPORAL_TLS_SERVER_NAME).
 */
export const COMPOSE_TLS_NAMES = [
  'temporal',
  'temporal-frontend',
  'temporal-frontend-2',
  'idp.localhost',
  'localhost',
  '127.0.0.1',
];
/** Long enough for a stack that runs for months; renewed this many days before the end. */
export const COMPOSE_TLS_DAYS = 825;
const RENEW_DAYS = 30;
/** The server certificate and its key in one file, as HAProxy's `crt` takes them (the codec server's TLS front). */
export const CERT_WITH_KEY = 'server-with-key.pem';

/** Whether `dir` holds a server certificate for every name, good for RENEW_DAYS more. */
function current(dir: string, now: Date): boolean {
  const file = join(dir, 'server.pem');
  if (!existsSync(file) || !existsSync(join(dir, CERT_WITH_KEY))) return false;
  const cert = new X509Certificate(readFileSync(file));
  const names = (cert.subjectAltName ?? '').split(', ').map((n) => n.replace(/^(DNS|IP Address):/, ''));
  const left = new Date(cert.validTo).getTime() - now.getTime();
  return COMPOSE_TLS_NAMES.every((n) => names.includes(n)) && left > RENEW_DAYS * 86_400_000;
}

/** Makes the certificates in `dir` unless they are current; says which. */
export function composeCertificates(dir: string, now = new Date()): 'made' | 'kept' {
  if (current(dir, now)) return 'kept';
  const made = makeCertificates(dir, { names: COMPOSE_TLS_NAMES, days: COMPOSE_TLS_DAYS });
  writeFileSync(
    join(dir, CERT_WITH_KEY),
    readFileSync(made.serverCert, 'utf8') + readFileSync(made.serverKey, 'utf8'),
    {
      mode: 0o600,
    },
  );
  return 'made';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('certificates: give the folder to make them in (the certificates volume, /certs)');
    process.exit(2);
  }
  const outcome = composeCertificates(dir);
  console.log(`certificates: ${outcome} in ${dir} (CA ca.pem; server certificate for ${COMPOSE_TLS_NAMES.join(', ')})`);
}
