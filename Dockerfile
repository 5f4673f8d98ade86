# Multi-stage: build the native store module and the dashboard, then a slim non-root runtime.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web && npm prune --omit=dev

FROM node:20-bookworm-slim
# MALLOC_MMAP_THRESHOLD_: glibc keeps freed page-sized buffers in its heap once its dynamic mmap
# threshold has grown; fixed at 128 KB, answer and page buffers go back to the OS (README, "Memory").
ENV NODE_ENV=production PORT=8000 HOST=0.0.0.0 CACHE_DIR=/data MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health?ready=1').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (exec form): in-flight requests finish, the store is flushed.
CMD ["node", "--import", "tsx", "src/main.ts"]
