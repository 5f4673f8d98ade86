# Multi-stage: compile the service and build the dashboard, then a slim non-root runtime that runs
# plain JavaScript on Node 24 (nothing native: the store is Node's own node:sqlite).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
# --ignore-scripts: `prepare` builds from the sources, which are copied next.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# The image has its own Node 24: the registry copy the project brings for other machines goes.
RUN npm run prepare \
  && npm prune --omit=dev \
  && rm -rf node_modules/node-linux-* node_modules/.bin/node

FROM node:24-bookworm-slim
# MALLOC_MMAP_THRESHOLD_: glibc keeps freed page-sized buffers in its heap once its dynamic mmap
# threshold has grown; fixed at 128 KB, answer and page buffers go back to the OS (docs/operations.md).
ENV NODE_ENV=production PORT=8000 HOST=0.0.0.0 CACHE_DIR=/data MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/
COPY --from=build --chown=node:node /app/node_modules /app/node_modules
COPY --from=build --chown=node:node /app/dist /app/dist
COPY --from=build --chown=node:node /app/web/dist /app/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health?ready=1').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (exec form): in-flight requests finish, the store is flushed.
# The young generation's floor: docs/operations.md, "Memory".
CMD ["node", "--enable-source-maps", "--min-semi-space-size=16", "dist/main.js"]
