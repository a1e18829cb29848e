# Toolshed's container image: `docker build -t toolshed .`, then
# `docker run -p 8080:8080 toolshed` (compose.yaml runs two instances behind nginx).
# Node 26 is the active LTS; CI runs the tests on it and on Node 20.
ARG NODE_IMAGE=node:26-bookworm-slim

# Build: every dependency, then tsc. Tests (.dockerignore) are not even copied in.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY plugin-sdk/package.json plugin-sdk/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY plugin-sdk/tsconfig.json plugin-sdk/
COPY plugin-sdk/src plugin-sdk/src
COPY kernel kernel
COPY service service
COPY cli cli
COPY mcp mcp
COPY recipes recipes
COPY tool-pages tool-pages
COPY plugins plugins
# npm run build's bundle steps: TypeBox into the SDK, each built-in plugin into one file, the tool
# pages' script and stylesheet.
COPY scripts/bundle-dependencies.mjs scripts/bundle-plugins.mjs scripts/bundle-tool-pages.mjs scripts/server-bundle-options.mjs scripts/
RUN npm run build && find dist plugin-sdk/dist -name '*.test.*' -delete && rm -rf plugin-sdk/dist/fixtures

# Runtime: production dependencies only, the compiled code and the default configuration.
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=1048576: memory freed after a burst of large requests
# goes back (docs/configuration.md).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576
WORKDIR /app
COPY package.json package-lock.json ./
COPY plugin-sdk/package.json plugin-sdk/
# The workspace @toolshed/plugin-sdk is linked to ./plugin-sdk, whose dist comes from the build
# stage. No production dependency needs an install script (the only one, swagger-ui-dist's
# @scarf/scarf, would send install analytics).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/plugin-sdk/dist plugin-sdk/dist
COPY --from=build /app/dist/kernel dist/kernel
COPY --from=build /app/dist/service dist/service
COPY --from=build /app/dist/cli dist/cli
COPY --from=build /app/dist/mcp dist/mcp
COPY --from=build /app/dist/recipes dist/recipes
COPY --from=build /app/dist/tool-pages dist/tool-pages
COPY --from=build /app/dist/plugins dist/plugins
COPY config config
# Everything above belongs to root; the service runs as the image's unprivileged `node` user
# (uid 1000) and writes nothing, so the container can run with a read-only file system.
USER node
EXPOSE 8080
# node itself probes /healthz (slim images have no curl); PORT is the one the service listens on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (npm would not pass it on), then finishes
# in-flight requests within server.shutdownTimeoutMs and exits 0.
CMD ["node", "dist/service/main.js"]
