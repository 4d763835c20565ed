import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config.js';
import { refusesToStart } from '../startup.js';
import { createLogger } from '../telemetry/logger.js';
import { issuer } from '../settings/sign-in.js';
import { startStandInIdp } from './provider.js';

// `node dist/src/stand-in-idp/main.js <file.json>`: the stand-in for the company's identity
// provider (provider.ts), for `npm run cluster` and compose only. Its one argument is a JSON file
// with its issuer, where it listens (and its TLS certificate and key, for https), its audience,
// test users and clients (it holds their passwords and secrets: keep it owner-only). A deployment
// runs its real provider instead.

const secret = z.string().min(8, 'must be at least 8 characters');
const file = z.object({
  issuer: issuer.schema,
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(1).max(65535),
  audience: z.url({ error: 'must be an absolute URI, such as api://payflows (a resource indicator)' }),
  accessTokenTtlSeconds: z.number().int().min(1).optional(),
  /** PEM files: it serves https itself (an issuer off loopback is https); without them, http. */
  tls: z.object({ certFile: z.string().min(1), keyFile: z.string().min(1) }).optional(),
  users: z.array(z.object({ username: z.string().min(1), password: secret, permissions: z.array(z.string()) })).min(1),
  webClients: z.array(
    z.object({ clientId: z.string().min(1), clientSecret: secret, redirectUris: z.array(z.url()).min(1) }),
  ),
  serviceClients: z.array(
    z.object({
      clientId: z.string().min(1),
      clientSecret: secret,
      permissions: z.array(z.string()),
      accessTokenTtlSeconds: z.number().int().min(1).optional(),
    }),
  ),
});

const path = process.argv[2];
const options = await refusesToStart(() => {
  if (!path) throw new ConfigError('stand-in identity provider: give its configuration file as the argument');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`stand-in identity provider: cannot read ${path}: ${(err as Error).message}`);
  }
  const parsed = file.safeParse(json);
  if (!parsed.success)
    throw new ConfigError(
      `stand-in identity provider: fix ${path}:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const { tls, ...options } = parsed.data;
  if (!tls) return options;
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`stand-in identity provider: tls.${name} in ${path}: ${(err as Error).message}`);
    }
  };
  return { ...options, tls: { cert: read('certFile', tls.certFile), key: read('keyFile', tls.keyFile) } };
});
const logger = createLogger({ service: 'stand-in-idp', level: 'info' });
const idp = await startStandInIdp(options);
logger.info(
  {
    issuer: idp.issuer,
    jwks: idp.jwksUrl,
    tokenEndpoint: idp.tokenUrl,
    users: options.users.map((u) => u.username),
    clients: [...options.webClients, ...options.serviceClients].map((c) => c.clientId),
  },
  'stand-in identity provider listening',
);
const stop = () => void idp.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
