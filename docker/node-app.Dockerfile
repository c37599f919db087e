# syntax=docker/dockerfile:1
# One image recipe for every deployable (the gateway and each service, the e-mail worker included):
#   docker build -f docker/node-app.Dockerfile --build-arg WORKSPACE=services/auth -t crm/auth .
#   docker build -f docker/node-app.Dockerfile --build-arg WORKSPACE=gateway -t crm/gateway .
# Stages: the manifests alone, the workspace's production dependencies installed from them, the
# build (bundle and front ends), and the runtime: only the production dependencies of that one
# workspace, the bundle (and the front ends), a non-root user, and a health check against the
# process's own /healthz.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
# A compiler and Python for native modules whose prebuilt binary does not load with the base's
# Node (argon2's crashes with some Node builds; its install then compiles it). Build stages only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

# Every workspace's package.json and the lock, nothing else: the two installs below start from this
# tree, which only a dependency change alters, so a code change reuses their cached layers instead
# of installing every dependency again in each image.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /repo
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY frontends ./frontends
RUN find . -type f ! -name package.json ! -name package-lock.json -delete \
 && find . -mindepth 1 -type d -empty -delete

# The runtime's files: the manifests (without this workspace's devDependencies, see
# docker/strip-dev-deps.cjs) and the lock, so that `npm ci --workspace` installs the third-party
# production dependencies of this workspace only (our own @crm/* code is in the bundle). Installed
# here, where native modules can be compiled, and copied whole into the runtime stage. Type
# declarations and the libraries' own source maps are never read at run time (the tracing SDK alone
# ships 30 MB of them): left out, so every image stays small.
FROM toolchain AS runtime-deps
ARG WORKSPACE
RUN test -n "$WORKSPACE" || { echo 'build with --build-arg WORKSPACE=<gateway|services/NAME>' >&2; exit 1; }
COPY --from=manifests /repo /out/app
COPY docker/strip-dev-deps.cjs /tmp/
RUN node /tmp/strip-dev-deps.cjs /out/app "$WORKSPACE" \
 && cd /out/app \
 && npm ci --omit=dev --no-audit --no-fund --workspace "$WORKSPACE" \
 && rm -rf /root/.npm \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

# Build stage: install everything, bundle our TypeScript with esbuild (scripts/build-deployable.ts)
# and, for the gateway, build every front end (frontends/*: the shell and its remotes).
FROM toolchain AS build
WORKDIR /repo
COPY --from=manifests /repo ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages ./packages
COPY services ./services
COPY gateway ./gateway
COPY frontends ./frontends
COPY scripts ./scripts
ARG WORKSPACE
RUN npx tsx scripts/build-deployable.ts "$WORKSPACE"
# The gateway serves the front ends: build every frontends/* app that has a build script (the shell
# and its remotes); an app whose build fails or leaves no dist/ fails the image.
RUN mkdir -p /out/frontends \
 && if [ "$WORKSPACE" = "gateway" ]; then \
      for app in frontends/*; do \
        node -e "process.exit(require('./$app/package.json').scripts?.build ? 0 : 1)" || continue; \
        npm run build --workspace "$app" && test -d "$app/dist" || exit 1; \
        mkdir -p "/out/$app" && cp -r "$app/dist" "/out/$app/"; \
      done; \
    fi

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
ARG WORKSPACE
COPY --from=runtime-deps /out/app ./
COPY --from=build /repo/${WORKSPACE}/dist ./${WORKSPACE}/dist
COPY --from=build /out/frontends ./frontends
COPY docker/healthcheck.cjs ./healthcheck.cjs
# A fixed entry point, so the process can be started without a shell (node is PID 1 and gets
# `docker stop`'s / Kubernetes' SIGTERM directly; every deployable handles it with handleShutdown).
RUN ln -s "/app/${WORKSPACE}/dist/main.js" /app/main.js
# Our packages' third-party dependencies that npm could not hoist (another version sits at the root:
# the tracing SDK's, for one) stay under packages/<name>/node_modules, which a require from the
# bundle in <workspace>/dist would never look in.
ENV FRONTENDS_DIR=/app/frontends \
    WORKSPACE=${WORKSPACE} \
    NODE_PATH=/app/packages/server-kit/node_modules:/app/packages/event-bus/node_modules:/app/packages/contracts/node_modules:/app/packages/view-config/node_modules
# The `node` user of the official image, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# The port is the service's PORT setting (or its default); see healthcheck.cjs. Generous timeout,
# start period and retries: on a busy two-core machine starting `node` alone can take seconds, and
# one container called unhealthy makes compose refuse to start the services that depend on it.
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=6 CMD ["node", "/app/healthcheck.cjs"]
CMD ["node", "--enable-source-maps", "/app/main.js"]
