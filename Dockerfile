# SPDX-License-Identifier: Apache-2.0
# One image for the three apps: `docker build --build-arg APP=gateway .` (or tail-sync,
# webhook-dispatcher). NODE_IMAGE names the Node base image (default: the official one).
# TAILSYNC_VERSION, TAILSYNC_REVISION and TAILSYNC_CREATED label the image (OCI) and are what
# `GET /Version` reports as its build; the release workflow and compose pass them.
ARG NODE_IMAGE=node:24.21-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall applies these to kafkajs (patch-package, a production dependency).
COPY patches/ ./patches/
# Behind a TLS-inspecting proxy npm needs the proxy's CA: put it in tools/docker/extra-ca/*.crt
# (README, "Operators"); it stays in this build stage, never in the runtime image.
COPY tools/docker/extra-ca/ /tmp/extra-ca/
RUN cat /tmp/extra-ca/*.crt > /tmp/extra-ca.pem 2>/dev/null || true; \
    NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
# compose's grpc-certs writes the service network's CA and each app's certificate into volumes
# mounted here; a new volume takes the directory's owner and mode: the apps' user's alone.
RUN install -d -o node -g node -m 0700 /var/lib/tailsync/grpc-tls/ca /var/lib/tailsync/grpc-tls/gateway \
      /var/lib/tailsync/grpc-tls/tail-sync /var/lib/tailsync/grpc-tls/webhook-dispatcher
COPY LICENSE NOTICE ./
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.base.json ./
COPY tools/run.js ./tools/run.js
# `kafka-principals`, `grpc-certificates` and `database-roles`, which compose's kafka-init, grpc-certs
# and postgres-roles run (docker-compose.yml).
COPY tools/cli/kafka-principals.ts tools/cli/grpc-certificates.ts tools/cli/database-roles.ts ./tools/cli/
COPY tools/pki/grpc-certificates.ts ./tools/pki/
COPY tools/postgres/service-roles.ts ./tools/postgres/
COPY tools/kafka/principals.ts tools/kafka/contract-acls.ts tools/kafka/kafka-clients-file.ts tools/kafka/kafka-principals.ts tools/kafka/scram-credentials.ts tools/kafka/acl-bindings.ts tools/kafka/every-broker-caught-up.ts tools/kafka/kafkajs-cluster.ts ./tools/kafka/
COPY libs ./libs
COPY apps/${APP} ./apps/${APP}
# The release's facts last, so a new commit or build time rebuilds no layer above.
ARG TAILSYNC_VERSION=
ARG TAILSYNC_REVISION=
ARG TAILSYNC_CREATED=
LABEL org.opencontainers.image.title="tailsync-${APP}" \
      org.opencontainers.image.description="tailsync ${APP}: event-sourced aircraft tail synchronization with signed webhook deliveries" \
      org.opencontainers.image.version="${TAILSYNC_VERSION}" \
      org.opencontainers.image.revision="${TAILSYNC_REVISION}" \
      org.opencontainers.image.created="${TAILSYNC_CREATED}" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV TAILSYNC_VERSION=${TAILSYNC_VERSION} TAILSYNC_REVISION=${TAILSYNC_REVISION} TAILSYNC_CREATED=${TAILSYNC_CREATED}
# Files root-owned and read-only to the app's user: compose also runs the root filesystem read-only.
USER node
# SWC transpiles the TypeScript sources at start (about a second); no separate build output to drift.
# The V8 flags are the local stack's (tools/stack/app-process.ts, APP_NODE_FLAGS).
CMD ["sh", "-c", "exec node --single-threaded-gc tools/run.js apps/${APP}/src/main.ts"]
