// MongoDB's first start (empty data volume) runs this from /docker-entrypoint-initdb.d, as the root
// user of MONGO_INITDB_ROOT_USERNAME. Every service gets its own database and its own user, which can
// read and write that database only (readWrite includes creating its indexes). Passwords come from
// the container's environment, MONGO_<SERVICE>_PASSWORD (docker-compose.yml passes them from .env).
// Later changes of a password are not applied by this script: use db.changeUserPassword (see
// docs/operations.md), or start from an empty volume.
/* global db, print -- mongosh's globals */
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

for (const service of services) {
  const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
  const password = process.env[variable];
  if (!password) throw new Error(`${variable} is not set: cannot create the ${service} user`);
  const database = db.getSiblingDB(service);
  database.createUser({ user: service, pwd: password, roles: [{ role: 'readWrite', db: service }] });
  print(`created user ${service} for database ${service}`);
}
