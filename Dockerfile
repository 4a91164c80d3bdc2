# One image for both roles (API and worker); the command picks the role.
# Stage 1 builds the web app (Vite is a devDependency); stage 2 carries only what runs.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The shell's own Capacitor plugin is a local package (file:): npm links it, so its package.json must be there.
COPY native/plugins/health-routes/package.json ./native/plugins/health-routes/
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run web:build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY native/plugins/health-routes/package.json ./native/plugins/health-routes/
RUN npm install --omit=dev --no-audit --no-fund
COPY domain ./domain
COPY projections ./projections
COPY app-server ./app-server
COPY --from=build /app/web/dist ./web/dist
EXPOSE 3001 5173
USER node
CMD ["node", "app-server/main.ts"]
