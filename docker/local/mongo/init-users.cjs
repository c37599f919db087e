/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node in the stand-in image */
// The stand-in's docker/mongo/init-service-users.js: as the root user, one user per service in its own
// database, with MONGO_<SERVICE>_PASSWORD from the environment or from the file of that name in
// CRM_SECRETS_DIR. (FerretDB keeps no roles: `roles: []`.)
const fs = require('node:fs');
const { MongoClient } = require('mongodb');

const SERVICES = [
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

async function connectAsRoot() {
  const user = encodeURIComponent(process.env.MONGO_INITDB_ROOT_USERNAME || 'root');
  const password = encodeURIComponent(process.env.MONGO_ROOT_PASSWORD || '');
  const url = `mongodb://${user}:${password}@127.0.0.1:27017/?authSource=admin`;
  for (let attempt = 0; ; attempt += 1) {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 2000 });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.close();
      if (attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function main() {
  const client = await connectAsRoot();
  try {
    for (const service of SERVICES) {
      const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
      const password = passwordOf(variable);
      if (!password)
        throw new Error(`${variable} is not set (nor in ${secretsDir}): cannot create the ${service} user`);
      await client.db(service).command({ createUser: service, pwd: password, roles: [] });
      console.log(`created user ${service} for database ${service}`);
    }
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(`init-users: ${error.message}`);
  process.exit(1);
});
