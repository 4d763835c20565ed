// Variables that Temporal's envconfig, the S3 client and the trace exporter read themselves, as
// docs/configuration.md describes them beside the product's own (src/settings/table.ts).

/** A variable a library reads, as docs/configuration.md describes it. */
export interface LibrarySetting {
  default: string;
  meaning: string;
}

export const LIBRARY_SETTINGS: Record<string, LibrarySetting> = {
  TEMPORAL_ADDRESS: {
    default: 'unset: `npm run dev` starts the embedded server',
    meaning: 'an existing Temporal frontend, `host:port` (or from the profile file)',
  },
  TEMPORAL_NAMESPACE: { default: '`default`', meaning: 'the namespace (or from the profile file)' },
  TEMPORAL_API_KEY: { default: 'unset', meaning: "Temporal Cloud's API key (needs TLS)" },
  TEMPORAL_TLS: {
    default: 'on for an API key or client certificates',
    meaning:
      '`true` or `false` (or `1`/`0`, in any case); any other spelling is refused. A server off loopback needs one said',
  },
  'TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH, TEMPORAL_TLS_SERVER_CA_CERT_PATH': {
    default: 'unset',
    meaning: 'mTLS certificates (each also as `…_DATA`), with `TEMPORAL_TLS_SERVER_NAME`',
  },
  'TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE': {
    default: '`~/.config/temporalio/temporal.toml`',
    meaning: 'a profile of the TOML file; the environment wins over the file',
  },
  'TEMPORAL_GRPC_META_*': {
    default: 'unset',
    meaning:
      'gRPC metadata sent with every call; a credential (`authorization`, a name with key, token, secret…, a `Bearer` value) needs TLS, as an API key does',
  },
  'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY': {
    default: 'unset',
    meaning: 'credentials of the S3 claim store (`CLAIM_STORE_URL`)',
  },
  AWS_REGION: { default: '`AWS_DEFAULT_REGION`, else `us-east-1`', meaning: "the S3 claim store's region" },
  AWS_ENDPOINT_URL_S3: {
    default: 'unset',
    meaning: 'an S3-compatible endpoint (path-style addressing, as S3-compatible servers expect)',
  },
  'OTEL_EXPORTER_OTLP_*': { default: 'unset', meaning: 'the trace exporter reads the other OTLP variables itself' },
};
