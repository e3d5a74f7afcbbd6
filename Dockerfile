# syntax=docker/dockerfile:1
# Switchyard: the gateway and its console in one image.
#   docker build -t switchyard .
#   docker run -p 3000:3000 -v switchyard-data:/data switchyard
# Native modules (better-sqlite3) are compiled here against the image's own Node headers, so
# the build downloads from the npm registry and Debian only.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
WORKDIR /app
COPY package.json package-lock.json ./

# The console and the server bundle, built with every dependency.
FROM toolchain AS build
RUN npm ci
COPY . .
RUN npm run build

# Only what the server needs at run time.
FROM toolchain AS production-deps
RUN npm ci --omit=dev

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    SQLITE_PATH=/data/switchyard.db
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY schemas ./schemas
# The data folder (SQLite file, generated session secret) belongs to the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# No curl in the slim image: Node itself asks the liveness probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM reaches Node directly (exec form): /readyz turns 503, then requests in flight finish.
STOPSIGNAL SIGTERM
# Node runs with the flags of `npm start` (package.json): see "Node's young generation" in the README.
CMD ["node", "--max-semi-space-size=32", "dist/server/main.js"]
