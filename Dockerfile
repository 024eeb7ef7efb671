# syntax=docker/dockerfile:1
# Quire's image: built once in the first stage, run by Node alone in the second (no npm, no build
# tools, no dev dependencies), as the unprivileged `node` user, with the data on a volume.
#   docker build -t quire .
#   docker run -d -p 4999:4999 -v quire-data:/data quire
# deploy/build-steps.sh runs this file's RUN steps of the build stage on a machine without
# Docker (test/deploy/manifests.test.ts checks the two stay the same).

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV CI=true
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
# Chromium prints export/pdf (playwright-core drives it) and fonts-noto-cjk holds its Chinese,
# Japanese and Korean glyphs. A slimmer image without them works too: PDF export then answers an
# error and everything else runs (drop this RUN line).
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-noto-cjk \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=4999 \
    HOST=0.0.0.0
# Name a volume for it (-v quire-data:/data): left anonymous, the next container (an upgrade) gets
# a new empty one, and Quire refuses to start on it (ALLOW_EPHEMERAL_DATA=true to accept that).
VOLUME /data
EXPOSE 4999
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4999)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# `npm start` without npm: npm would sit between the container's stop signal and Quire.
CMD ["node", "--max-semi-space-size=1", "server/start.mjs"]
