# The product's own processes (worker, ingress, sandbox) for docker-compose.yml.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
CMD ["npm", "run", "worker"]
