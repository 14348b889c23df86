# One image for every part; the compose file picks the part with `--only`.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json tsconfig.json ./
COPY domain/package.json domain/
COPY eventstore/package.json eventstore/
COPY platform/package.json platform/
COPY projector/package.json projector/
COPY write-api/package.json write-api/
COPY read-api/package.json read-api/
COPY web/package.json web/
COPY cli/package.json cli/
COPY testing/package.json testing/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx turbo run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8000
COPY --from=build /app /app
EXPOSE 8000
ENTRYPOINT ["node", "cli/dist/main.js", "start"]
