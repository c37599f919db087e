// MongoDB's first start (empty data volume) runs this from /docker-entrypoint-initdb.d, as the root
// user of MONGO_INITDB_ROOT_USERNAME. Every service gets its own database and its own user, which can
// read and write that database only (readWrite includes creating its indexes). Passwords come from
// the container's environment, MONGO_<SERVICE>_PASSWORD, or when that is unset from the file of that
// name in CRM_SECRETS_DIR (default /run/crm-secrets: docker-compose.yml's secrets service makes them).
// Later changes of a password are not applied by this script: use db.changeUserPassword (see
// docs/operations.md), or start from an empty volume.
/* global db, print -- mongosh's globals */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a mongosh script is no module: require is its way to fs
const fs = require('fs');

const services = [
  'auth',
  'appointments',
  'records',
  'rooms',
  'config',
  'notifications',
  'audit',
  'reporting',
  'payments',
];
const secretsDir = process.env.CRM_SECRETS_DIR || '/run/crm-secrets';

function passwordOf(variable) {
  if (process.env[variable]) return process.env[variable];
  const file = `${secretsDir}/${variable}`;
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd() : '';
}

for (const service of services) {
  const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
  const password = passwordOf(variable);
  if (!password)
    throw new Error(`${variable} is not set (nor in ${secretsDir}): cannot create the ${service} user`);
  const database = db.getSiblingDB(service);
  database.createUser({ user: service, pwd: password, roles: [{ role: 'readWrite', db: service }] });
  print(`created user ${service} for database ${service}`);
}
