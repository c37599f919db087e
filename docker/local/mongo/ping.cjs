#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node in the stand-in image */
// The stand-in's health check (compose runs it where the official image has mongosh): FerretDB
// answers a ping and the first start's users exist.
const fs = require('node:fs');
const { MongoClient } = require('mongodb');

if (!fs.existsSync('/run/postgresql/crm-ready')) process.exit(1);
const client = new MongoClient('mongodb://127.0.0.1:27017/', { serverSelectionTimeoutMS: 3000 });
client
  .db('admin')
  .command({ ping: 1 })
  .then(
    () => process.exit(0),
    () => process.exit(1),
  );
