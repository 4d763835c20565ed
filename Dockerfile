# The product's processes (worker, ingress, codec server, sandbox) as one image; the command
# chooses the process. Multi-stage: TypeScript is compiled and the workflows are bundled at build
# time; the final stage holds dist/ and the production dependencies only, runs as a non-root user
# under tini, and answers HEALTHCHECK. No Docker engine runs where this is developed: the test
# test/cluster/production-build.test.ts does the same steps outside a container (see README).
ARG NODE_IMAGE=node:22.23.3-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.ts scripts/build.ts
COPY src src
COPY workflows workflows
COPY activities activities
COPY worker worker
# dist/: plain ES modules, declarations, source maps, and the workflow bundles (with and without
# the tracing interceptors: dist/workflow-bundle.js, dist/workflow-bundle-untraced.js), and the
# worker's build id, dist/build-id.txt: the WORKER_BUILD_ID build argument (e.g. the commit), else
# the bundle's hash (docs/deploying.md).
ARG WORKER_BUILD_ID=
RUN npm run build

# docker-compose.yml's one-shot helpers, not the product: the stack's certificates
# (deploy/compose/certificates.ts, with scripts/lib/tls.ts and openssl, as `npm run cluster` makes
# its own) and the admin's token for the namespace's set-up (deploy/compose/admin-token.ts). On the
# build stage, which holds the sources and tsx; `docker compose` builds it as target compose-tools.
FROM build AS compose-tools
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssl \
  && rm -rf /var/lib/apt/lists/*
COPY scripts/lib/tls.ts scripts/lib/tls.ts
COPY deploy/compose deploy/compose
# The certificates volume starts as this folder: owned by the user that writes it (uid 1000, as the
# Temporal server's and the Node images' users, which read the keys).
RUN mkdir -p /certs /run/payflows-admin && chown node:node /certs /run/payflows-admin
USER node

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The claim store and the sandbox's state, writable by the process's user.
RUN mkdir -p /data && chown node:node /data
USER node
ENV CLAIM_STORE_DIR=/data/claims
# The worker's /health, so that the default command answers HEALTHCHECK; the check follows the
# command (src/healthcheck.ts), so an ingress in this image is asked on INGRESS_OPS_PORT.
ENV WORKER_HEALTH_PORT=9470
# A heap that fits a container of 1 GiB with room for what is not heap; for another size set
# NODE_OPTIONS to about 60% of it. The worker sizes its workflow cache from the heap and the
# container's memory limit and prints what it chose (docs/capacity.md).
ENV NODE_OPTIONS=--max-old-space-size=640
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/src/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The worker; the ingress is `node dist/src/ingress/main.js`, the codec server
# `node dist/src/temporal/codec-server-main.js`, the sandbox `node dist/src/sandbox/main.js`.
CMD ["node", "dist/worker/main.js"]
