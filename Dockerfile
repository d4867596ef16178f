# syntax=docker/dockerfile:1
# The quoter as an image: the compiled service (dist/), its production dependencies and nothing else, run as a
# non-root user by plain node (so SIGTERM reaches the service and its drain). With no RPC_URL_<chainId> it serves
# the embedded demo chain (anvil from its npm package), as `npm start` does. Build: `npm run image`.
ARG BASE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY client/package.json client/tsconfig.json client/
COPY client/src client/src
COPY scripts scripts
COPY src src
# The builder's npm configuration and the CA bundle it names come in as build secrets, never into a layer.
RUN --mount=type=secret,id=npmrc,required=false --mount=type=secret,id=cafile,required=false \
    set -eu; \
    if [ -f /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -f /run/secrets/cafile ]; then export NPM_CONFIG_CAFILE=/run/secrets/cafile; fi; \
    npm ci --no-audit --no-fund --ignore-scripts; \
    npm run build; \
    rm -rf /root/.npm

# The production dependencies alone, installed anew from the lockfile: no dev dependency, and no optional one
# (TypeScript, an optional peer of viem's, and ws's native accelerators, which the service does not build).
FROM ${BASE_IMAGE} AS dependencies
WORKDIR /build
COPY package.json package-lock.json ./
COPY client/package.json client/
RUN --mount=type=secret,id=npmrc,required=false --mount=type=secret,id=cafile,required=false \
    set -eu; \
    if [ -f /run/secrets/npmrc ]; then export NPM_CONFIG_USERCONFIG=/run/secrets/npmrc; fi; \
    if [ -f /run/secrets/cafile ]; then export NPM_CONFIG_CAFILE=/run/secrets/cafile; fi; \
    npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund; \
    rm -rf /root/.npm

FROM ${BASE_IMAGE}
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="quoter" \
      org.opencontainers.image.description="Largest position a collateral budget can open on a Sapience prediction market without the price passing the trader's expected price" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="UNLICENSED"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /build/package.json ./
COPY --from=dependencies /build/node_modules node_modules
COPY --from=build /build/dist dist
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
