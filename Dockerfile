# The API and the worker share one image; the command picks the role.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false
COPY domain ./domain
COPY projections ./projections
COPY app-server ./app-server
EXPOSE 3001
USER node
CMD ["node", "app-server/main.ts"]
