# One image for the three apps: `docker build --build-arg APP=gateway .` (or tail-sync,
# webhook-dispatcher). NODE_IMAGE names the Node base image (default: the official one).
ARG NODE_IMAGE=node:20.20-bookworm-slim

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
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.base.json ./
COPY tools/run.js ./tools/run.js
COPY libs ./libs
COPY apps/${APP} ./apps/${APP}
USER node
# SWC transpiles the TypeScript sources at start (about a second); no separate build output to drift.
# The V8 flags are the local stack's (tools/stack/app-process.ts, APP_NODE_FLAGS).
CMD ["sh", "-c", "exec node --single-threaded-gc tools/run.js apps/${APP}/src/main.ts"]
