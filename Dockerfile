# syntax=docker/dockerfile:1
#
# One image for every Intent Gateway app. The command selects the app:
#   docker run intent-gateway                                              # api-gateway (default)
#   docker run intent-gateway node dist/apps/policy-registry/src/main.js   # any other app
#
# Build: docker build -t intent-gateway .

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
# openssl: Prisma probes libssl when generating clients and running migrations (it only warns
# without it, but the probe is noisy). ca-certificates: TLS to managed Postgres/Redis/Kafka.
RUN apt-get update \
 && apt-get install -y --no-install-recommends openssl ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# ---------------------------------------------------------------------------------------------
# deps: keyed on the lockfile only, so source edits don't reinstall node_modules.
# The root postinstall (Prisma client generation) needs the source tree, which isn't here yet:
# install without scripts, then run the dependencies' own install scripts with `npm rebuild`
# (which skips the root package's scripts); the root postinstall runs in the build stage.
FROM base AS deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild

# ---------------------------------------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run postinstall \
 && npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---------------------------------------------------------------------------------------------
FROM base AS runtime
ENV NODE_ENV=production \
    CHECKPOINT_DISABLE=1
# Code and dependencies stay root-owned (read-only for the app user). The embedded app keeps
# its PGlite data under DATA_DIR (default ./.data), so that one directory is writable.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/.data && chown node:node /app/.data
# The base image's `node` user, numerically so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
CMD ["node", "dist/apps/api-gateway/src/main.js"]
