# The production image, in two stages (docs/deployment.md, "Production shape").
#
# build:   every dependency (the dev ones compile), the patches applied by the postinstall
#          (patch-package), `npm run build`: the service (tsc) and the /graphiql explorer (esbuild).
# runtime: production dependencies only (`npm ci --omit=dev`; patch-package is one of them, so the
#          patches are applied here too), the built files the service reads at run time and nothing
#          else (no sources, tests, benchmarks or docs), the unprivileged `node` user, tini as PID 1.
#
# Docker does not run on the CI machines: `npm run test:image` (scripts/check-runtime-tree.ts, run
# by .ci/run) rebuilds the runtime stage's tree from this file's runtime-stage lines in a temporary
# folder, runs its migration job, starts its CMD with the production variables only, asks its
# HEALTHCHECK and stops it; test/deploy/dockerfile.test.ts checks the rules below that need no Docker.

# Debian 12 (bookworm) slim with the Node release CI tests on; a tag of its own, never `latest`.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# patches/ before npm ci: its postinstall applies them.
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# tini reaps zombies and hands SIGTERM to node, which runs its graceful shutdown (docker's --init
# is not available to every compose user). Debian's package, version pinned with the base image.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini=0.19.0-1+b3 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# DATA_DIR's default, the one folder node may write to: a development container keeps its generated
# keys there (docker-compose.yml mounts a volume on it); production keeps nothing on disk.
RUN mkdir .data && chown node:node .data
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# What the service reads at run time: its compiled code (migrations included, they are modules),
# the migration job `npm run migrate` runs, and the explorer bundle /graphiql serves (found from
# package.json's folder, src/explorer/bundle.ts). The source maps serve --enable-source-maps.
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/scripts/migrate.js /app/dist/scripts/migrate.js.map ./dist/scripts/
COPY --from=build /app/dist/explorer ./dist/explorer
# Two glibc malloc arenas instead of up to 8 per core, and the V8 heap flags of package.json's
# config.nodeFlags (docs/deployment.md, "Memory"; test/deploy/dockerfile.test.ts keeps the two
# equal): those Node admits in NODE_OPTIONS here, for every node of the image (the migration job
# too), and the rest on CMD. Set after npm ci, which must not run under a 128 MB heap.
ENV MALLOC_ARENA_MAX=2 \
  NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=8"
USER node
EXPOSE 4000
# Ready (the database and, when REDIS_URL is set, Redis answer; not draining after SIGTERM). Node's
# own fetch: the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--no-allocation-site-pretenuring", "--enable-source-maps", "dist/src/server.js"]
