FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.build.json
EXPOSE 4000
# The V8 heap flags of package.json's config.nodeFlags (as `npm start` uses them); exec keeps
# node as PID 1 so SIGTERM reaches its graceful shutdown.
CMD ["sh", "-c", "exec node $(node -p \"require('./package.json').config.nodeFlags\") --enable-source-maps dist/src/server.js"]
