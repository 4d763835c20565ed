import { ConfigError } from '../config.js';
import { startupConfig } from '../required-settings.js';
import { refusesToStart } from '../startup.js';
import { createCodecServerMetrics } from '../telemetry/codec-server-metrics.js';
import { createLogger } from '../telemetry/logger.js';
import { codecFromConfig } from './codec.js';
import { claimsBackendFromConfig, registerClaimsRoute } from './claims-route.js';
import { codecAccessProblem, createCodecServer, createCodecServerOps } from './codec-server.js';
import { signInAccess } from './codec-server-oidc.js';

// `npm run codec-server`: the codec server alone, for the Web UI (TEMPORAL_CODEC_ENDPOINT) and the
// Temporal CLI (--codec-endpoint, --codec-auth). It holds the payload key.
const config = startupConfig('codec-server');
const logger = createLogger({ service: 'codec-server', level: config.telemetry.logLevel });
// A setting's refusal, printed as startupConfig prints one (exit 78). It never connects to Temporal.
const access = await refusesToStart(() => {
  const signIn = signInAccess(config.codecServer.oidc);
  const access = { ...config.codecServer, namespace: config.temporal.namespace, signIn };
  const problem = codecAccessProblem(access, config.codecServer.host, { embedded: config.temporal.embedded });
  if (problem) throw new ConfigError(problem);
  return access;
});
const metrics = createCodecServerMetrics();
const app = createCodecServer(codecFromConfig(config.payloads), access, { metrics });
// Claims from backends in other languages (docs/other-languages.md), with the same credential.
const claims = claimsBackendFromConfig(config);
registerClaimsRoute(app, claims, config.codecServer);
await app.listen({ port: config.codecServer.port, host: config.codecServer.host });
// Prometheus scrapes GET /metrics here, without the token (createCodecServerOps says why apart).
const ops = createCodecServerOps(metrics);
await ops.listen({ port: config.codecServer.ops.port, host: config.codecServer.ops.host });
logger.info(
  {
    host: config.codecServer.host,
    port: config.codecServer.port,
    metrics: `http://${config.codecServer.ops.host}:${config.codecServer.ops.port}/metrics`,
    signIn: access.signIn
      ? `users signed in at ${access.signIn.issuer} with ${access.signIn.decodeRole} in ${access.signIn.roleClaim}`
      : 'off',
    token: config.codecServer.token
      ? `required (bearer${access.signIn ? '' : ', or a browser session from /session'})`
      : access.signIn
        ? 'none (users only)'
        : 'none (embedded stack: the Web UI by its origin)',
    allowedOrigins: config.codecServer.allowedOrigins,
    namespace: config.temporal.namespace,
    claims: 'store' in claims ? 'POST /claims stores claims' : claims.unavailable,
  },
  'codec server listening',
);
const stop = () => void Promise.all([app.close(), ops.close()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
