# A MongoDB-wire server for machines without a registry (scripts/compose/images.ts): FerretDB on
# PostgreSQL, both in this one container, data in /data/db as with the official image. On the first
# start it creates what docker/mongo/init-service-users.js creates in MongoDB: the root user of
# MONGO_INITDB_ROOT_USERNAME / MONGO_INITDB_ROOT_PASSWORD_FILE and one user per service in that
# service's database, with the passwords of the secrets service (mongo/init-users.cjs). FerretDB
# authenticates them (SCRAM) but does not enforce their roles: real MongoDB does.
ARG NODE_IMAGE=crm/node:20
FROM ${NODE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/crm-mongo
COPY ferretdb /usr/local/bin/ferretdb
COPY mongo/package.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY mongo/entrypoint.sh mongo/init-users.cjs mongo/ping.cjs ./
RUN ln -s /opt/crm-mongo/ping.cjs /usr/local/bin/mongo-ping && chmod +x ping.cjs entrypoint.sh
EXPOSE 27017
ENTRYPOINT ["/opt/crm-mongo/entrypoint.sh"]
