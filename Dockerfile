FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.build.json
EXPOSE 4000
CMD ["node", "--enable-source-maps", "dist/src/server.js"]
