# One image for the three apps: `docker build --build-arg APP=gateway .` (or tail-sync, webhook-dispatcher).
# syntax=docker/dockerfile:1

FROM node:20.20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20.20-bookworm-slim AS runtime
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
