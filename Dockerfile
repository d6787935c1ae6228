FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# patches/ before npm ci: its postinstall applies them (patch-package).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
# The service (tsc) and the schema explorer it serves at /graphiql (esbuild).
RUN npm run build
EXPOSE 4000
# Two glibc malloc arenas instead of up to 8 per core: V8's compiler and libuv threads otherwise
# each keep freed memory in an arena of their own (docs/deployment.md, Memory).
ENV MALLOC_ARENA_MAX=2
# The V8 heap flags of package.json's config.nodeFlags (as `npm start` uses them); exec keeps
# node as PID 1 so SIGTERM reaches its graceful shutdown.
CMD ["sh", "-c", "exec node $(node -p \"require('./package.json').config.nodeFlags\") --enable-source-maps dist/src/server.js"]
